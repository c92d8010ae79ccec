/**
 * A step's poll answers (guides §2, §5), read from its fields when a block with actions is pressed: the React
 * blocks (renderBlocks) and the painted ones (overlay/static) read them the same way.
 */
import type { PollAnswers } from './api';

/**
 * The answers of the step around `from`: every element with `data-poll-id`, a text field or select by its
 * value, a radio group by its checked input. Empty answers are left out.
 */
export function pollAnswersIn(from: Element): PollAnswers {
  const root = from.closest('[data-waymark-step]') ?? from.getRootNode();
  const answers: PollAnswers = {};
  for (const el of Array.from((root as ParentNode).querySelectorAll('[data-poll-id]'))) {
    const id = el.getAttribute('data-poll-id');
    if (!id) continue;
    let value: string | undefined;
    if (el instanceof HTMLInputElement) {
      if (el.type === 'radio' || el.type === 'checkbox') value = el.checked ? el.value : undefined;
      else if (el.type !== 'password' && el.type !== 'hidden') value = el.value;
    } else if (el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
      value = el.value;
    }
    if (value !== undefined && value.trim() !== '') answers[id] = value.trim();
  }
  return answers;
}

/**
 * The questions of the step around `from` still unanswered (their `data-poll-id`), leaving out those marked
 * `data-poll-optional`: what a step with attributes.isRequired waits for.
 */
export function unansweredIn(from: Element): string[] {
  const root = from.closest('[data-waymark-step]') ?? from.getRootNode();
  const answered = pollAnswersIn(from);
  const ids = Array.from((root as ParentNode).querySelectorAll('[data-poll-id]:not([data-poll-optional])')).map((el) => el.getAttribute('data-poll-id') ?? '');
  return [...new Set(ids)].filter((id) => id && !(id in answered));
}
