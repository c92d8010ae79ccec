/**
 * Step skipping of the markdown plugin (analytics-spec: "Markdown plugin behaviour (... step skipping ...)";
 * the syntax is ours, docs/markdown.md): a line `<!-- skip if visitor.role is "admin" -->` or
 * `<!-- skip unless account.plan is one of "pro", "enterprise" -->` in a step's markdown. An HTML comment, so
 * a markdown preview (an editor's, GitHub's) hides it as it hides any comment. Conditions are those of
 * shared/segments/segmentConditions.ts, written in words:
 *   <path> is <value> | is not <value> | contains <value> | starts with <text> | is one of <value>, <value>...
 * joined by `and`. A value is a "quoted text" (or 'quoted'), a number, true, false, null, or one bare word (a text).
 * Judged with segmentConditions' matching, where a missing value meets no condition: `skip if visitor.role is
 * "admin"` keeps the step for a visitor without a role, `skip unless ...` (and `is not`) skips it. Pure.
 */
import {
  checkConditionPath,
  matchesConditions,
  type SegmentCondition,
  type SegmentSubject,
  type SegmentValue,
} from '../../shared/segments/segmentConditions';

/** One condition of a marker: segmentConditions' condition at a path, or its negation (`is not`). */
export interface SkipCondition {
  path: string;
  condition: SegmentCondition;
  negated: boolean;
}

/** A skip marker: skip when every condition holds (`if`), or when not all of them do (`unless`). */
export interface SkipMarker {
  mode: 'if' | 'unless';
  conditions: SkipCondition[];
}

/** A marker read, or why not. */
export type SkipReading = { ok: true; marker: SkipMarker } | { ok: false; problem: string };

/** The grammar in one line, for messages. */
export const SKIP_GRAMMAR = 'skip if|unless <path> is|is not|contains|starts with|is one of <value> [and ...]';

/** Words of the text after `skip` and the quoted values, in order. */
type Word = { word: string; quoted: boolean };

/** True when the comment's text starts with the word `skip`: the author meant a marker. */
export function isSkipMarker(comment: string): boolean {
  return /^skip\b/i.test(comment.trim());
}

/** Reads the text of a comment that {@link isSkipMarker}. */
export function parseSkipMarker(comment: string): SkipReading {
  const words = splitWords(comment.trim());
  if (typeof words === 'string') return { ok: false, problem: words };
  const fail = (why: string): SkipReading => ({ ok: false, problem: `skip marker "${comment.trim()}": ${why}; write ${SKIP_GRAMMAR}` });
  const mode = words[1]?.word.toLowerCase();
  if (words[1]?.quoted || (mode !== 'if' && mode !== 'unless')) return fail("'skip' is followed by 'if' or 'unless'");
  const conditions: SkipCondition[] = [];
  let i = 2;
  for (;;) {
    const path = words[i];
    if (!path || path.quoted) return fail('a condition starts with a path such as visitor.role');
    const pathProblem = checkConditionPath(path.word);
    if (pathProblem) return fail(`${path.word}: ${pathProblem}`);
    const read = readOperator(words, i + 1);
    if (typeof read === 'string') return fail(read);
    conditions.push({ path: path.word, condition: read.condition, negated: read.negated });
    i = read.next;
    if (i >= words.length) break;
    if (words[i]!.quoted || words[i]!.word.toLowerCase() !== 'and') return fail(`'${words[i]!.word}' where 'and' or the end was expected`);
    i += 1;
  }
  return { ok: true, marker: { mode: mode as 'if' | 'unless', conditions } };
}

/**
 * spec: "Markdown plugin behaviour (... step skipping ...)" — true when one of a step's markers says to skip it
 * for the visitor whose guide.json payload is `subject`.
 */
export function isSkipped(markers: readonly SkipMarker[], subject: SegmentSubject): boolean {
  return markers.some((marker) => {
    const all = marker.conditions.every(({ path, condition, negated }) => matchesConditions({ [path]: condition }, subject) !== negated);
    return marker.mode === 'if' ? all : !all;
  });
}

/** The operator and value(s) at `start`: the condition, and where the next word is; a string says what is wrong. */
function readOperator(words: Word[], start: number): { condition: SegmentCondition; negated: boolean; next: number } | string {
  const at = (k: number) => (words[k] && !words[k]!.quoted ? words[k]!.word.toLowerCase() : undefined);
  let i = start;
  let op: 'is' | 'isNot' | 'contains' | 'startsWith' | 'in';
  if (at(i) === 'is' && at(i + 1) === 'not') [op, i] = ['isNot', i + 2];
  else if (at(i) === 'is' && at(i + 1) === 'one' && at(i + 2) === 'of') [op, i] = ['in', i + 3];
  else if (at(i) === 'is') [op, i] = ['is', i + 1];
  else if (at(i) === 'contains') [op, i] = ['contains', i + 1];
  else if (at(i) === 'starts' && at(i + 1) === 'with') [op, i] = ['startsWith', i + 2];
  else return `'${words[i]?.word ?? 'the end'}' where is, is not, contains, starts with or is one of was expected`;
  const first = words[i];
  if (!first || isComma(first)) return 'a condition ends with the value it compares with';
  if (op === 'in') {
    const values: SegmentValue[] = [];
    for (;;) {
      const word = words[i];
      if (!word || isComma(word)) return "'is one of' is followed by values separated by commas";
      values.push(valueOf(word));
      i += 1;
      if (!words[i] || !isComma(words[i]!)) break;
      i += 1;
    }
    return { condition: { in: values }, negated: false, next: i };
  }
  const value = valueOf(first);
  if (op === 'startsWith') {
    if (typeof value !== 'string') return "'starts with' compares with a text";
    return { condition: { startsWith: value }, negated: false, next: i + 1 };
  }
  if (op === 'contains') return { condition: { contains: value }, negated: false, next: i + 1 };
  return { condition: { equals: value }, negated: op === 'isNot', next: i + 1 };
}

function isComma(word: Word): boolean {
  return !word.quoted && word.word === ',';
}

/** A word as a value: quoted text stays text; numbers, true, false and null are read as such. */
function valueOf({ word, quoted }: Word): SegmentValue {
  if (quoted) return word;
  if (word === 'true') return true;
  if (word === 'false') return false;
  if (word === 'null') return null;
  if (/^-?\d+(?:\.\d+)?$/.test(word)) return Number(word);
  return word;
}

/** Splits on spaces, keeping "quoted" and 'quoted' texts whole and commas as their own words; a string says what is wrong. */
function splitWords(text: string): Word[] | string {
  const words: Word[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return `skip marker "${text}": a quote ${c} is not closed`;
      words.push({ word: text.slice(i + 1, end), quoted: true });
      i = end + 1;
    } else if (c === ',') {
      words.push({ word: ',', quoted: false });
      i += 1;
    } else {
      let end = i;
      while (end < text.length && !/[\s,"']/.test(text[end]!)) end += 1;
      words.push({ word: text.slice(i, end), quoted: false });
      i = end;
    }
  }
  return words;
}
