/**
 * A step drawn from the nodes the worker rendered (issue #34), without React: the same elements the React surfaces
 * make (the worker rendered them with those components), and what the visitor does with them, handled here by
 * delegation on the step's box: a building block's actions (`data-wm-action`), Enter and Space on blocks that are
 * not native controls, the close button, a poll's answers and its thank-you, attributes.isRequired's reminder. A
 * lightbox is a modal dialog (makeModal); a tooltip follows its element (followTarget).
 */
import { REQUIRED_ANSWER_TEXT, THANK_YOU_TEXT } from '../../shared/constants';
import type { GuideAction } from '../../shared/guides/guides';
import type { PaintedStep, StepToShow } from '../../shared/protocol';
import { tooltipCaret } from '../../shared/surfaces/guideTheme';
import type { StepHandlers, UiElement } from '../api';
import { followTarget, placementOf } from '../followTarget';
import { makeModal } from '../modalDialog';
import { pollAnswersIn, unansweredIn } from '../pollAnswers';
import { buildNodes } from './buildNodes';

/** Elements the keyboard already reaches and presses (an `a` only with an href): Enter on them clicks by itself. */
const NATIVE_CONTROLS = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'LABEL']);

/** A painted step on the page. */
export interface PaintedView {
  /** The page replaced the step's element: a tooltip follows the new one (the step, and what was typed, stay). */
  retarget(target: Element | null): void;
  /** Takes the step off the page. */
  undo(): void;
}

/**
 * Draws `step` (which has `painted`) into `container`, replacing what was there. `handlers` answers the current
 * handlers (a redraw on a new element brings new ones).
 */
export function paintStep(container: HTMLElement, step: StepToShow & { painted: PaintedStep }, target: Element | null, handlers: () => StepHandlers): PaintedView {
  const doc = container.ownerDocument;
  const fragment = doc.createDocumentFragment();
  buildNodes(doc, step.painted.nodes, fragment);
  container.replaceChildren(fragment);
  const box = container.querySelector<HTMLElement>('.wm-step');
  if (!box) return { retarget() {}, undo: () => container.replaceChildren() };
  const content = box.querySelector<HTMLElement>('[data-waymark-step]');
  let thanked = false;

  /** The actions of `el` (and of every block with actions around it, as React's bubbling click runs them all). */
  const press = (el: Element, event: Event) => {
    event.preventDefault();
    for (let at: Element | null = el; at && at !== box; at = at.parentElement) {
      const actions = step.painted.actions[Number(at.getAttribute('data-wm-action'))];
      if (!at.hasAttribute('data-wm-action') || !actions) continue;
      run(actions, { id: at.id, type: at.tagName }, at);
    }
  };
  const run = (actions: GuideAction[], ui: UiElement, at: Element) => {
    // guides §5: poll answers come from text, select and checked radio inputs of the step.
    const answers = actions.some((a) => a.action === 'submitPoll') ? pollAnswersIn(at) : undefined;
    const goesOn = actions.some((a) => a.action === 'submitPoll' || a.action === 'advanceGuide');
    // guides §3 attributes.isRequired: the step's questions are answered before it sends or moves on.
    const waiting = step.attributes.isRequired === true && goesOn && unansweredIn(at).length > 0;
    remind(waiting && !thanked);
    if (waiting) return;
    // guides §2: a submitted poll shows its thank-you message in place of the step's content.
    if (answers && Object.keys(answers).length && content) {
      thanked = true;
      const thanks = doc.createElement('p');
      thanks.className = 'wm-thanks';
      thanks.setAttribute('role', 'status');
      thanks.textContent = typeof step.attributes.thankYouMessage === 'string' ? step.attributes.thankYouMessage : THANK_YOU_TEXT;
      content.replaceChildren(thanks);
    }
    handlers().onAction(actions, ui, answers);
  };
  let reminder: HTMLElement | null = null;
  const remind = (on: boolean) => {
    if (!on) return void reminder?.remove();
    if (!reminder) {
      reminder = doc.createElement('p');
      reminder.className = 'wm-required';
      reminder.setAttribute('role', 'alert');
      reminder.textContent = REQUIRED_ANSWER_TEXT;
    }
    content?.appendChild(reminder);
  };

  const onClick = (event: MouseEvent) => {
    const el = event.target instanceof Element ? event.target : null;
    if (!el) return;
    // The step's own close button (a child of the box): a block an author classed wm-close is only a block.
    const close = el.closest('.wm-close');
    if (close && close.parentElement === box) return handlers().onDismiss({ id: 'close', type: 'BUTTON' });
    const block = el.closest('[data-wm-action]');
    if (block && box.contains(block)) press(block, event);
  };
  // An element the keyboard cannot press by itself was made a button (role, tab index) by the renderer: Enter and
  // Space press it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const block = event.target instanceof Element ? event.target.closest('[data-wm-action]') : null;
    if (!block || !box.contains(block) || NATIVE_CONTROLS.has(block.tagName) || (block.tagName === 'A' && block.hasAttribute('href'))) return;
    press(block, event);
  };
  box.addEventListener('click', onClick);
  box.addEventListener('keydown', onKeyDown);

  let stopPlacing = () => {};
  const place = (on: Element | null) => {
    stopPlacing();
    const caret = box.querySelector<HTMLElement>('.wm-caret');
    if (box.classList.contains('wm-tooltip') && on && caret) {
      stopPlacing = followTarget(on, box, caret, placementOf(step.attributes, tooltipCaret(step.attributes.theme).outset));
    }
  };
  place(target);
  const undoModal = box.getAttribute('aria-modal') === 'true' ? makeModal(box) : () => {};
  return {
    retarget: place,
    undo() {
      box.removeEventListener('click', onClick);
      box.removeEventListener('keydown', onKeyDown);
      stopPlacing();
      container.replaceChildren();
      // After the dialog left, as React's effect cleanup runs after the commit that removed it.
      undoModal();
    },
  };
}
