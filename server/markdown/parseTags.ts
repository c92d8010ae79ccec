/**
 * The inline tags of a step written in markdown (issue #17 "Markdown plugin"; analytics-spec: "Markdown plugin
 * behaviour (branching, required questions, step skipping, metadata substitution): tag syntax not shown", so the
 * syntax is ours, documented in docs/markdown.md):
 * - metadata substitution: `{{visitor.firstName | there}}`, a path of shared/segments/segmentConditions.ts
 *   (`visitorId`, `accountId`, `url`, `visitor.X`, `account.X`, `parentAccount.X`) and, after `|`, the text
 *   shown when the visitor has no such value;
 * - branching: `[[Next]]`, `[[Back]]`, `[[Dismiss]]`, `[[Snooze]]`, `[[Send]]`, `[[Go to step 3]]` or
 *   `[[Go to step <step id>]]`, each with an optional label after `:` (`[[Next: Let's go]]`).
 * Pure: what a tag says, or why it cannot be read; nothing here touches markup.
 */
import { checkConditionPath, valueAt, type SegmentSubject } from '../../shared/segments/segmentConditions';

/** A `{{path | fallback}}` tag. */
export interface VariableTag {
  path: string;
  /** The text shown when the value is missing; '' when the tag gives none. */
  fallback: string;
}

/** What a button does: the agent's building-block actions (shim/guides/runBlockActions.ts). */
export type ButtonKind = 'next' | 'back' | 'dismiss' | 'snooze' | 'send' | 'goToStep';

/** A `[[...]]` tag. */
export interface ButtonTag {
  kind: ButtonKind;
  /** The label as written, still holding its `{{...}}` tags; the keyword itself when none is given. */
  label: string;
  /** goToStep: a 1-based step position (digits only) or a step id. */
  target?: string;
}

/** A tag read, or why not. */
export type TagReading<T> = { ok: true; tag: T } | { ok: false; problem: string };

const KEYWORDS: Record<string, Exclude<ButtonKind, 'goToStep'>> = {
  next: 'next',
  back: 'back',
  dismiss: 'dismiss',
  snooze: 'snooze',
  send: 'send',
};

/** The words of the button keywords, for messages. */
export const BUTTON_WORDS = 'Next, Back, Dismiss, Snooze, Send or Go to step <number or id>';

/** Reads what is between `{{` and `}}`. */
export function parseVariable(inner: string): TagReading<VariableTag> {
  const bar = inner.indexOf('|');
  const path = (bar < 0 ? inner : inner.slice(0, bar)).trim();
  const fallback = bar < 0 ? '' : inner.slice(bar + 1).trim();
  if (path === '') return { ok: false, problem: `{{${inner}}} names no value: write {{visitor.firstName}} or {{account.plan | fallback}}` };
  if (/\s/.test(path)) return { ok: false, problem: `{{${inner}}}: a path has no spaces (write {{visitor.firstName | fallback text}})` };
  const problem = checkConditionPath(path);
  if (problem) return { ok: false, problem: `{{${inner}}}: ${problem}` };
  if (fallback.includes('{{') || fallback.includes('}}')) return { ok: false, problem: `{{${inner}}}: a fallback is plain text, without tags` };
  return { ok: true, tag: { path, fallback } };
}

/** Reads what is between `[[` and `]]`. */
export function parseButton(inner: string): TagReading<ButtonTag> {
  const colon = inner.indexOf(':');
  const head = (colon < 0 ? inner : inner.slice(0, colon)).trim();
  const written = colon < 0 ? undefined : inner.slice(colon + 1).trim();
  if (written === '') return { ok: false, problem: `[[${inner}]] has an empty label after ':'` };
  if (written !== undefined) {
    const labelProblem = checkText(written);
    if (labelProblem) return { ok: false, problem: `[[${inner}]]: ${labelProblem}` };
  }
  const goTo = /^go\s+to\s+step\s+(\S+)$/i.exec(head);
  if (goTo) return { ok: true, tag: { kind: 'goToStep', target: goTo[1]!, label: written ?? `Go to step ${goTo[1]}` } };
  const kind = KEYWORDS[head.toLowerCase()];
  if (!kind) return { ok: false, problem: `[[${inner}]] is not a button: write ${BUTTON_WORDS}, with a label after ':' if you like` };
  return { ok: true, tag: { kind, label: written ?? capitalize(head.toLowerCase()) } };
}

/** One piece of a text that may hold `{{...}}` tags (a button label, a question, an option). */
export type TextPart = { text: string } | { variable: VariableTag };

/**
 * Splits `text` into plain text and `{{...}}` tags; a `\{` keeps a brace as written. The problem of the first
 * tag that cannot be read (or an unclosed `{{`), else null.
 */
export function splitText(text: string): { parts: TextPart[]; problem: string | null } {
  const parts: TextPart[] = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '\\' && (text[i + 1] === '{' || text[i + 1] === '}')) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (text.startsWith('{{', i)) {
      const end = text.indexOf('}}', i + 2);
      if (end < 0) return { parts, problem: `'{{' is not closed by '}}'` };
      const reading = parseVariable(text.slice(i + 2, end));
      if (!reading.ok) return { parts, problem: reading.problem };
      if (plain) parts.push({ text: plain });
      plain = '';
      parts.push({ variable: reading.tag });
      i = end + 2;
      continue;
    }
    plain += text[i];
    i += 1;
  }
  if (plain) parts.push({ text: plain });
  return { parts, problem: null };
}

/** Why a text's `{{...}}` tags cannot be read, or null. */
export function checkText(text: string): string | null {
  return splitText(text).problem;
}

/** A text with its `{{...}}` tags filled in from the visitor's payload (as text, never markup). */
export function fillText(text: string, subject: SegmentSubject): string {
  const { parts, problem } = splitText(text);
  if (problem) return text;
  return parts.map((part) => ('text' in part ? part.text : valueText(part.variable, subject))).join('');
}

/**
 * spec: "Markdown plugin behaviour (... metadata substitution)" — the value at the tag's path in the visitor's
 * guide.json payload as text: a string as it is, a number or boolean written out, a list of those joined by ', '.
 * Missing, empty, null or an object: the fallback.
 */
export function valueText(tag: VariableTag, subject: SegmentSubject): string {
  const value = valueAt(subject, tag.path);
  const text = textOf(value);
  return text === undefined || text.trim() === '' ? tag.fallback : text;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length > 0) {
    const items = value.map(textOf);
    return items.every((item) => item !== undefined) ? items.join(', ') : undefined;
  }
  return undefined;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
