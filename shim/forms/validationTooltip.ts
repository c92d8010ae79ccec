/**
 * The validation tooltip (analytics §2, §9: 300 px wide) beside an invalid field: the texts of the rules its value
 * breaks, shown while the visitor is in an invalid field (not after: it would cover the next one). A plain element at the end of the
 * body, styled through the CSSOM (allowed by a CSP that forbids inline styles), placed by floating-ui below the
 * field (above when there is no room) and following it on scroll and resize. The field is described by it
 * (aria-describedby), and it is announced politely.
 */
import { autoUpdate, computePosition, flip, offset, shift } from '@floating-ui/dom';
import { FORM_VALIDATION_TOOLTIP_WIDTH_PX } from '../../shared/constants';
import { RED } from './fieldStyles';

export interface ValidationTooltip {
  show(texts: string[]): void;
  remove(): void;
}

let next = 0;

export function createValidationTooltip(field: HTMLElement): ValidationTooltip {
  const box = document.createElement('div');
  box.id = `waymark-validation-${++next}`;
  box.setAttribute('data-waymark-validation-tooltip', '');
  box.setAttribute('role', 'status');
  box.setAttribute('aria-live', 'polite');
  Object.assign(box.style, {
    position: 'fixed',
    top: '0',
    left: '0',
    zIndex: '2147483000',
    boxSizing: 'border-box',
    width: `${FORM_VALIDATION_TOOLTIP_WIDTH_PX}px`,
    maxWidth: 'calc(100vw - 16px)',
    padding: '8px 12px',
    borderRadius: '6px',
    font: '13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif',
    boxShadow: '0 2px 8px rgba(0,0,0,.2)',
    background: '#fff',
    color: '#a50e0e',
    border: `1px solid ${RED}`,
    pointerEvents: 'none',
  } satisfies Partial<CSSStyleDeclaration>);
  const described = field.getAttribute('aria-describedby');
  field.setAttribute('aria-describedby', described ? `${described} ${box.id}` : box.id);
  document.body.append(box);
  const place = () =>
    void computePosition(field, box, { strategy: 'fixed', placement: 'bottom-start', middleware: [offset(6), flip(), shift({ padding: 8 })] }).then(({ x, y }) => {
      box.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
    });
  const stopFollowing = autoUpdate(field, box, place);
  return {
    show(texts) {
      box.replaceChildren(...texts.map((t) => Object.assign(document.createElement('div'), { textContent: t })));
    },
    remove() {
      stopFollowing();
      box.remove();
      const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== box.id);
      if (ids.length) field.setAttribute('aria-describedby', ids.join(' '));
      else field.removeAttribute('aria-describedby');
    },
  };
}
