/**
 * Watches the validated fields of a page (analytics §2, §3, §4 "Field validity", §9 debounce): each input matching
 * a field's selector is gray until validated; typing validates it 100 ms after the last key, leaving it invalid
 * shows a red border and the tooltip with what to type; leaving it (blur) validates at once and keeps an invalid
 * field red (the tooltip goes: it would cover the next field), coming back to it shows the tooltip again. Listens on the document in the capture phase, so inputs added later (an SPA's next
 * form) and inputs inside open shadow roots are validated without a scan; fields already on the page are marked
 * gray at once, and a field seen first on focus then. Each validation dispatches `waymark:formvalidation` on the
 * input (bubbling, composed) with the field's record (analytics §3: id, context, rules, isValid) and the ids of
 * the rules it breaks: how a host app learns of it. Never blocks a submit. Selectors were checked by the caller.
 */
import { FORM_VALIDATION_DEBOUNCE_MS } from '../../shared/constants';
import { validityOf, type FieldValidity, type FormField, type FormFieldRecord } from '../../shared/forms/formValidation';
import { adoptFieldStyles, STATE_ATTRIBUTE } from './fieldStyles';
import { createValidationTooltip, type ValidationTooltip } from './validationTooltip';

/** The event a validated input dispatches; its detail is the field's record and the ids of the rules it breaks. */
export const VALIDATION_EVENT = 'waymark:formvalidation';

export interface FieldWatch {
  stop(): void;
}

/** What the watch keeps of one input. */
interface InputState {
  field: FormField;
  timer?: ReturnType<typeof setTimeout>;
  tooltip?: ValidationTooltip;
  /** Whether we set aria-invalid (a host's own is left alone). */
  ownAria?: boolean;
}

export function createFieldWatch(fields: FormField[]): FieldWatch {
  const inputs = new Map<HTMLElement, InputState>();
  const validity = new Map<string, FieldValidity>(fields.map((f) => [f.id, null]));
  const unadopt = new Map<Document | ShadowRoot, () => void>();

  /** The field `el` is validated by, or null. */
  const fieldOf = (el: EventTarget | undefined): FormField | null => {
    if (!(el instanceof HTMLElement) || el.closest('[data-waymark-validation-tooltip]')) return null;
    return fields.find((f) => el.matches(f.context.selector)) ?? null;
  };

  /** The input's state, marking it gray the first time it is met. */
  const stateOf = (el: HTMLElement, field: FormField): InputState => {
    let state = inputs.get(el);
    if (!state) {
      state = { field };
      inputs.set(el, state);
      const root = el.getRootNode() as Document | ShadowRoot;
      if (!unadopt.has(root)) unadopt.set(root, adoptFieldStyles(root));
      el.setAttribute(STATE_ATTRIBUTE, 'unknown');
    }
    return state;
  };

  function validate(el: HTMLElement, state: InputState, blurred: boolean): void {
    clearTimeout(state.timer);
    state.timer = undefined;
    const { isValid, broken } = validityOf(state.field, valueOf(el));
    validity.set(state.field.id, isValid);
    el.setAttribute(STATE_ATTRIBUTE, isValid === null ? 'unknown' : isValid ? 'valid' : 'invalid');
    if (isValid === false) {
      if (!el.hasAttribute('aria-invalid') || state.ownAria) {
        el.setAttribute('aria-invalid', 'true');
        state.ownAria = true;
      }
    } else if (state.ownAria) {
      el.removeAttribute('aria-invalid');
      state.ownAria = false;
    }
    if (isValid === false && !blurred) {
      state.tooltip ??= createValidationTooltip(el);
      state.tooltip.show(broken.map((r) => r.ruleText));
    } else {
      state.tooltip?.remove();
      state.tooltip = undefined;
    }
    el.dispatchEvent(
      new CustomEvent(VALIDATION_EVENT, {
        bubbles: true,
        composed: true,
        detail: { ...recordOf(state.field), brokenRules: broken.map((r) => r.id) },
      }),
    );
  }

  const recordOf = (field: FormField): FormFieldRecord => ({ ...field, isValid: validity.get(field.id) ?? null });

  const inputOf = (event: Event): [HTMLElement, InputState] | null => {
    const el = event.composedPath()[0];
    const field = fieldOf(el);
    return field ? [el as HTMLElement, stateOf(el as HTMLElement, field)] : null;
  };

  const onInput = (event: Event) => {
    const hit = inputOf(event);
    if (!hit) return;
    const [el, state] = hit;
    clearTimeout(state.timer);
    state.timer = setTimeout(() => validate(el, state, false), FORM_VALIDATION_DEBOUNCE_MS);
  };
  const onFocusIn = (event: Event) => {
    const hit = inputOf(event);
    // Back in a field left invalid: what to type, again.
    if (hit?.[0].getAttribute(STATE_ATTRIBUTE) === 'invalid') validate(hit[0], hit[1], false);
  };
  const onFocusOut = (event: Event) => {
    const hit = inputOf(event);
    // A field left untouched stays gray: leaving is no answer.
    if (hit && (hit[1].timer !== undefined || hit[0].getAttribute(STATE_ATTRIBUTE) !== 'unknown' || valueOf(hit[0]).trim())) validate(hit[0], hit[1], true);
  };

  const listeners: Array<[string, (event: Event) => void]> = [
    ['input', onInput],
    ['change', onInput],
    ['focusin', onFocusIn],
    ['focusout', onFocusOut],
  ];
  for (const [type, listener] of listeners) document.addEventListener(type, listener, true);
  // The fields already on the page are gray before the visitor types; one already filled in (the browser's
  // autofill, or typing before this chunk came) is validated now, its tooltip shown only if the visitor is in it.
  for (const field of fields) {
    for (const el of document.querySelectorAll(field.context.selector)) {
      if (!(el instanceof HTMLElement) || inputs.has(el)) continue;
      const state = stateOf(el, field);
      if (valueOf(el).trim()) validate(el, state, el !== document.activeElement);
    }
  }

  return {
    stop() {
      for (const [type, listener] of listeners) document.removeEventListener(type, listener, true);
      for (const [el, state] of inputs) {
        clearTimeout(state.timer);
        state.tooltip?.remove();
        if (state.ownAria) el.removeAttribute('aria-invalid');
        el.removeAttribute(STATE_ATTRIBUTE);
      }
      inputs.clear();
      for (const undo of unadopt.values()) undo();
      unadopt.clear();
    },
  };
}

/** What the visitor typed: an input's, a textarea's or a select's value, else an editable element's text. */
function valueOf(el: HTMLElement): string {
  return 'value' in el && typeof el.value === 'string' ? el.value : (el.textContent ?? '');
}

