/**
 * The poll a designer step asks (guides §2 "Poll and NPS rating inside a step", §3 Poll, §5 poll answers), as
 * building blocks the agent already renders and the guide's `polls` records the worker types its answers by:
 * - NPS: 0-10 radios of an `NPSRating` poll and a free-form reason (`FreeForm`);
 * - multiple choice: one radio per option of a `PickList` poll (a single answer, sent as the option's text);
 * - open text: a text area of a `FreeForm` poll;
 * - yes/no: two radios of a `YesNo` poll, Yes sent as 1 and No as 0 (yes/no answers parse as integers, §5);
 * - number scale: one radio per number from `min` to `max` of a `NumberScale` poll, with the words under each end.
 * Each ends with a Send button whose `submitPoll` action sends what the visitor answered (the overlay reads
 * every `data-poll-id` input of the step: text, select, checked radio). Pure.
 */
import type { DomNode, Guide } from '../../../shared/guides/guides';

/** What a step asks; null on the step: nothing. */
export type DesignerPoll =
  | { kind: 'nps'; reasonLabel: string }
  | { kind: 'choice'; question: string; options: string[] }
  | { kind: 'text'; question: string }
  | { kind: 'yesno'; question: string }
  | { kind: 'scale'; question: string; min: number; max: number; minLabel: string; maxLabel: string };

export type PollKind = DesignerPoll['kind'];

type PollRecord = NonNullable<Guide['polls']>[number];

/** The poll ids a step's question uses, by kind: derived from the step id, so a guide read back finds them. */
export const pollIds = (stepId: string) => ({
  score: `${stepId}-nps`,
  reason: `${stepId}-reason`,
  choice: `${stepId}-choice`,
  text: `${stepId}-text`,
  yesno: `${stepId}-yesno`,
  scale: `${stepId}-scale`,
});

/** The numbers a scale may run between, and its longest run (a row of radios must fit a step). */
export const SCALE_LIMITS = { lowest: 0, highest: 10, longest: 11 } as const;

/** A scale's ends made valid: whole numbers within {@link SCALE_LIMITS}, `min` below `max`. */
export function clampScale(min: number, max: number): { min: number; max: number } {
  const whole = (n: number, fallback: number) => (Number.isFinite(n) ? Math.round(n) : fallback);
  const lo = Math.min(Math.max(whole(min, 1), SCALE_LIMITS.lowest), SCALE_LIMITS.highest - 1);
  const hi = Math.min(Math.max(whole(max, 5), lo + 1), SCALE_LIMITS.highest, lo + SCALE_LIMITS.longest - 1);
  return { min: lo, max: hi };
}

/** The numbers of a scale, in order. */
function scaleValues(poll: { min: number; max: number }): number[] {
  const { min, max } = clampScale(poll.min, poll.max);
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}

/** Back-compatible name of the NPS ids (the first poll the designer wrote). */
export const npsPollIds = (stepId: string) => ({ score: pollIds(stepId).score, reason: pollIds(stepId).reason });

/** A new question of a kind, with words an author edits. */
export function newPoll(kind: PollKind): DesignerPoll {
  if (kind === 'nps') return { kind, reasonLabel: 'What is the main reason for your score?' };
  if (kind === 'choice') return { kind, question: 'Which do you use most?', options: ['Reports', 'Exports', 'Sharing'] };
  if (kind === 'yesno') return { kind, question: 'Did this page help you?' };
  if (kind === 'scale') return { kind, question: 'How easy was it to set up?', min: 1, max: 5, minLabel: 'Very hard', maxLabel: 'Very easy' };
  return { kind, question: 'What could we do better?' };
}

/** One radio button of a poll, labelled by its text. */
function radio(pollId: string, value: string, label: string): DomNode {
  return {
    type: 'label',
    props: {},
    children: [
      { type: 'input', props: { type: 'radio', name: pollId, value, 'data-poll-id': pollId, 'aria-label': label } },
      { type: 'span', props: {}, content: label },
    ],
  };
}

/** The building blocks of a step's question, its Send button last. */
export function pollBlocks(stepId: string, poll: DesignerPoll): DomNode[] {
  const ids = pollIds(stepId);
  const send: DomNode = { type: 'button', props: { id: `${stepId}-send` }, content: 'Send', actions: [{ action: 'submitPoll', eventType: 'click', parameters: [] }] };
  if (poll.kind === 'nps') {
    const scores = Array.from({ length: 11 }, (_, n) => radio(ids.score, String(n), String(n)));
    return [
      { type: 'div', props: { role: 'radiogroup', 'aria-label': '0 means not at all, 10 means extremely likely' }, children: scores },
      { type: 'label', props: { for: ids.reason }, content: poll.reasonLabel },
      { type: 'textarea', props: { id: ids.reason, 'data-poll-id': ids.reason, 'data-poll-optional': '', placeholder: 'Optional' } },
      send,
    ];
  }
  if (poll.kind === 'choice') {
    const questionId = `${ids.choice}-question`;
    const options = poll.options.filter((o) => o.trim()).map((o) => radio(ids.choice, o.trim(), o.trim()));
    return [
      { type: 'p', props: { id: questionId, 'data-poll-question': ids.choice }, content: poll.question },
      { type: 'div', props: { role: 'radiogroup', 'aria-labelledby': questionId }, children: options },
      send,
    ];
  }
  if (poll.kind === 'yesno') {
    const questionId = `${ids.yesno}-question`;
    return [
      { type: 'p', props: { id: questionId, 'data-poll-question': ids.yesno }, content: poll.question },
      { type: 'div', props: { role: 'radiogroup', 'aria-labelledby': questionId }, children: [radio(ids.yesno, '1', 'Yes'), radio(ids.yesno, '0', 'No')] },
      send,
    ];
  }
  if (poll.kind === 'scale') {
    const questionId = `${ids.scale}-question`;
    const values = scaleValues(poll);
    return [
      { type: 'p', props: { id: questionId, 'data-poll-question': ids.scale }, content: poll.question },
      { type: 'div', props: { role: 'radiogroup', 'aria-labelledby': questionId, 'data-poll-scale': ids.scale }, children: values.map((n) => radio(ids.scale, String(n), String(n))) },
      {
        type: 'div',
        props: { 'data-poll-scale-labels': ids.scale },
        children: [
          { type: 'span', props: { 'data-poll-scale-end': 'min' }, content: poll.minLabel },
          { type: 'span', props: { 'data-poll-scale-end': 'max' }, content: poll.maxLabel },
        ],
      },
      send,
    ];
  }
  return [
    { type: 'label', props: { for: ids.text, 'data-poll-question': ids.text }, content: poll.question },
    { type: 'textarea', props: { id: ids.text, 'data-poll-id': ids.text } },
    send,
  ];
}

/** The guide's `polls` records of a step's question: the worker types each answer by them (guides §5). */
export function pollRecords(stepId: string, poll: DesignerPoll): PollRecord[] {
  const ids = pollIds(stepId);
  if (poll.kind === 'nps') {
    return [
      { id: ids.score, numericResponses: Array.from({ length: 11 }, (_, n) => n), attributes: { type: 'NPSRating' } },
      { id: ids.reason, attributes: { type: 'FreeForm' } },
    ];
  }
  if (poll.kind === 'choice') return [{ id: ids.choice, attributes: { type: 'PickList' } }];
  if (poll.kind === 'yesno') return [{ id: ids.yesno, numericResponses: [0, 1], attributes: { type: 'YesNo' } }];
  if (poll.kind === 'scale') return [{ id: ids.scale, numericResponses: scaleValues(poll), attributes: { type: 'NumberScale' } }];
  return [{ id: ids.text, attributes: { type: 'FreeForm' } }];
}

/** Every poll id the designer may have written for a step (replaced, not duplicated, when it writes again). */
export function designedPollIds(stepId: string): string[] {
  return Object.values(pollIds(stepId));
}

/** Whether a block belongs to a step's question (kept out of the step's title and text when read back). */
export function isPollBlock(block: DomNode): boolean {
  const props = block.props ?? {};
  return props['data-poll-question'] !== undefined || props['data-poll-id'] !== undefined || props['data-poll-scale'] !== undefined || props['data-poll-scale-labels'] !== undefined || props['data-poll-scale-end'] !== undefined;
}

/** The question a step's blocks ask, read back from what {@link pollBlocks} wrote; null when none. */
export function readPoll(stepId: string, blocks: readonly DomNode[]): DesignerPoll | null {
  const ids = pollIds(stepId);
  const inputsOf = (id: string) => blocks.filter((b) => b.props?.['data-poll-id'] === id);
  const questionOf = (id: string) => blocks.find((b) => b.props?.['data-poll-question'] === id)?.content ?? '';
  if (inputsOf(ids.score).length) {
    return { kind: 'nps', reasonLabel: blocks.find((b) => b.type === 'label' && b.props?.for === ids.reason)?.content ?? '' };
  }
  const choices = inputsOf(ids.choice);
  if (choices.length) return { kind: 'choice', question: questionOf(ids.choice), options: choices.map((b) => String(b.props?.value ?? '')) };
  if (inputsOf(ids.text).length) return { kind: 'text', question: questionOf(ids.text) };
  if (inputsOf(ids.yesno).length) return { kind: 'yesno', question: questionOf(ids.yesno) };
  const scale = inputsOf(ids.scale).map((b) => Number(b.props?.value));
  if (scale.length) {
    const endOf = (end: string) => blocks.find((b) => b.props?.['data-poll-scale-end'] === end)?.content ?? '';
    return { kind: 'scale', question: questionOf(ids.scale), min: Math.min(...scale), max: Math.max(...scale), minLabel: endOf('min'), maxLabel: endOf('max') };
  }
  return null;
}
