/**
 * Reads a step written in markdown (issue #17 "Markdown plugin"; analytics-spec: "Markdown plugin behaviour
 * (branching, required questions, step skipping, metadata substitution): tag syntax not shown"; our syntax is in
 * docs/markdown.md) with markdown-it, taught our tags as markdown-it rules so that they are tokens beside
 * markdown's own, never text pasted into markup:
 * - block: a question `??? How did you hear about us? (required)` with its `- ( ) option` lines; a comment line
 *   `<!-- ... -->` (dropped, or a skip marker when it starts with `skip`: server/markdown/parseSkipMarker.ts);
 * - inline: `{{path | fallback}}` and `[[Next: label]]` (server/markdown/parseTags.ts).
 * Raw HTML is off (`html: false`): markup an author writes is shown as the text it is. A tag that cannot be read
 * stays in the output as the text written, and is listed with its 1-based line among the problems (the console's
 * guide PUT refuses the step with them: server/guides/checkGuideBody.ts). Pure apart from markdown-it's work.
 */
import markdownIt from 'markdown-it';
import type { MarkdownIt, StateBlock, StateCore, StateInline, Token } from 'markdown-it';
import { checkText, parseButton, parseVariable, type ButtonTag, type VariableTag } from './parseTags';
import { isSkipMarker, parseSkipMarker, type SkipMarker } from './parseSkipMarker';

/** A tag that cannot be read, and where. */
export interface MarkdownProblem {
  /** 1-based line of the step's markdown. */
  line: number;
  message: string;
}

/** A question of a step (the `wm_question` token's meta). */
export interface QuestionMeta {
  /** The question as written (its `{{...}}` tags filled in when rendered), without `(required)`. */
  text: string;
  required: boolean;
  /** The `- ( )` options; none: the visitor answers in their own words. */
  options: string[];
}

/** A step's markdown as read. */
export interface ParsedMarkdown {
  tokens: Token[];
  skips: SkipMarker[];
  problems: MarkdownProblem[];
}

/** What the rules share while one step is read (markdown-it's `env`). */
interface ReadEnv {
  /** 0-based first line of the block whose inline content is read now. */
  line: number;
  problems: MarkdownProblem[];
}

/** The meta of one of our tokens, as the rule that made it wrote it. */
export function metaOf<T>(token: Token): T {
  return token.meta as unknown as T;
}

/** Longest markdown a step may hold (characters): bounds the work of one guide.json. */
export const MAX_MARKDOWN_LENGTH = 20_000;

/**
 * markdown-it nesting kept well under shared/guides/checkBuildingBlocks' MAX_CONTENT_DEPTH (64 levels), so
 * converted content always passes the agent's check.
 */
const MAX_NESTING = 20;

const markdown = createMarkdown();

/** Reads `source` into markdown-it tokens (with ours), the step's skip markers and the tags it could not read. */
export function parseStepMarkdown(source: string): ParsedMarkdown {
  const env: ReadEnv = { line: 0, problems: [] };
  const tokens = markdown.parse(source, env as unknown as Record<string, unknown>);
  const skips = tokens.filter((t) => t.type === 'wm_skip').map((t) => metaOf<SkipMarker>(t));
  const seen = new Set<string>();
  const problems = env.problems.filter((p) => !seen.has(`${p.line}\u0000${p.message}`) && seen.add(`${p.line}\u0000${p.message}`));
  return { tokens, skips, problems: problems.sort((a, b) => a.line - b.line) };
}

/** markdown-it's CommonMark reading plus tables and strikethrough, raw HTML off, with our rules. */
function createMarkdown(): MarkdownIt {
  // 'default' is CommonMark with GFM tables and strikethrough; linkify and typographer stay off (what the author
  // wrote is what shows).
  const md = markdownIt('default', { html: false, linkify: false, typographer: false, breaks: false, maxNesting: MAX_NESTING });
  const interrupts = { alt: ['paragraph', 'reference', 'blockquote', 'list'] };
  md.block.ruler.before('table', 'wm_comment', commentRule, interrupts);
  md.block.ruler.before('table', 'wm_question', questionRule, interrupts);
  md.inline.ruler.before('link', 'wm_button', buttonRule);
  md.inline.ruler.before('link', 'wm_variable', variableRule);
  // markdown-it's own 'inline' core rule, telling our inline rules the line of the block they read.
  md.core.ruler.at('inline', (state: StateCore) => {
    const env = state.env as unknown as ReadEnv;
    let line = 0;
    for (const token of state.tokens) {
      if (token.map) line = token.map[0];
      if (token.type !== 'inline') continue;
      env.line = line;
      state.md.inline.parse(token.content, state.md, state.env, token.children ?? (token.children = []));
    }
  });
  return md;
}

/** The text of line `line` after its indent, and whether it is indented as code (4 spaces past the block's). */
function lineText(state: StateBlock, line: number): { text: string; code: boolean } {
  const text = state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
  return { text, code: state.sCount[line]! - state.blkIndent >= 4 };
}

function problem(state: { env: unknown }, line: number, message: string): void {
  (state.env as unknown as ReadEnv).problems.push({ line, message });
}

/** A source line shown as plain text: what a block tag that cannot be read becomes. */
function plainLine(state: StateBlock, line: number, text: string): void {
  const token = state.push('wm_plain', '', 0);
  token.map = [line, line + 1];
  token.meta = { text };
}

/**
 * A whole line `<!-- ... -->`: an author's note (dropped), or, starting with `skip`, a skip marker
 * (spec: "Markdown plugin behaviour (... step skipping ...)").
 */
function commentRule(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  const { text, code } = lineText(state, startLine);
  const comment = code ? null : /^<!--(.*?)-->\s*$/.exec(text);
  if (!comment) return false;
  if (silent) return true;
  state.line = startLine + 1;
  if (!isSkipMarker(comment[1]!)) return true;
  const reading = parseSkipMarker(comment[1]!);
  if (!reading.ok) {
    problem(state, startLine + 1, reading.problem);
    plainLine(state, startLine, text);
    return true;
  }
  const token = state.push('wm_skip', '', 0);
  token.map = [startLine, startLine + 1];
  token.meta = { ...reading.marker };
  return true;
}

/** Options of a question: `- ( ) Search` (or `*`, `+`). */
const OPTION = /^[-*+][ \t]+\([ \t]?\)[ \t]*(.*)$/;

/**
 * A question (spec: "Markdown plugin behaviour (... required questions ...)"): `??? text`, `(required)` at its
 * end when the visitor must answer, then its option lines; without options, a question answered in words.
 */
function questionRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const { text, code } = lineText(state, startLine);
  if (code || !text.startsWith('???')) return false;
  if (silent) return true;
  let question = text.slice(3).trim();
  const marker = /\((required|optional)\)\s*$/i.exec(question);
  const required = marker?.[1]?.toLowerCase() === 'required';
  if (marker) question = question.slice(0, marker.index).trim();
  const options: string[] = [];
  const lines: string[] = [text];
  let next = startLine + 1;
  while (next < endLine) {
    const option = lineText(state, next);
    const match = option.code ? null : OPTION.exec(option.text);
    if (!match) break;
    options.push(match[1]!.trim());
    lines.push(option.text);
    next += 1;
  }
  state.line = next;
  const why =
    question === '' ? "a question follows '???': ??? How did you hear about us? (required)"
    : options.some((o) => o === '') ? `question "${question}" has an option without words after '( )'`
    : checkText(question) ?? options.map(checkText).find((p) => p !== null) ?? null;
  if (why) {
    problem(state, startLine + 1, why);
    lines.forEach((line, i) => plainLine(state, startLine + i, line));
    return true;
  }
  const token = state.push('wm_question', '', 0);
  token.map = [startLine, next];
  token.meta = { ...({ text: question, required, options } satisfies QuestionMeta) };
  return true;
}

/** The 1-based line of position `pos` of the inline content read now. */
function lineAt(state: StateInline, pos: number): number {
  let line = (state.env as unknown as ReadEnv).line + 1;
  for (let i = state.src.indexOf('\n'); i >= 0 && i < pos; i = state.src.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Where a tag opened at `start` by two characters closes with `close` on the same line; -1 when it does not. */
function closingAt(state: StateInline, start: number, close: string): number {
  const end = state.src.indexOf(close, start + 2);
  const newline = state.src.indexOf('\n', start);
  const limit = Math.min(state.posMax, newline < 0 ? Infinity : newline);
  return end < 0 || end + close.length > limit ? -1 : end;
}

/** `{{path | fallback}}` (spec: "Markdown plugin behaviour (... metadata substitution)"). */
function variableRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (!state.src.startsWith('{{', start)) return false;
  const end = closingAt(state, start, '}}');
  if (end < 0) {
    if (!silent) problem(state, lineAt(state, start), `'{{' is not closed by '}}' on its line`);
    return false;
  }
  const reading = parseVariable(state.src.slice(start + 2, end));
  if (!reading.ok) {
    if (!silent) problem(state, lineAt(state, start), reading.problem);
    return false;
  }
  if (!silent) {
    const token = state.push('wm_variable', '', 0);
    token.meta = { ...(reading.tag satisfies VariableTag) };
  }
  state.pos = end + 2;
  return true;
}

/** `[[Next]]`, `[[Go to step 3: label]]` (spec: "Markdown plugin behaviour (branching ...)"). */
function buttonRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (!state.src.startsWith('[[', start)) return false;
  const end = closingAt(state, start, ']]');
  if (end < 0) {
    if (!silent) problem(state, lineAt(state, start), `'[[' is not closed by ']]' on its line`);
    return false;
  }
  const reading = parseButton(state.src.slice(start + 2, end));
  if (!reading.ok) {
    if (!silent) problem(state, lineAt(state, start), reading.problem);
    return false;
  }
  if (!silent) {
    const token = state.push('wm_button', '', 0);
    token.content = state.src.slice(start, end + 2);
    token.meta = { ...(reading.tag satisfies ButtonTag), line: lineAt(state, start) };
  }
  state.pos = end + 2;
  return true;
}
