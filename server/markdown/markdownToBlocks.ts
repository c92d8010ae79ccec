/**
 * A step's markdown, read by server/markdown/parseStepMarkdown.ts, as the building blocks of its `domJson`
 * (issue #17 "Markdown plugin": "render through the building-block allow-list (never raw HTML)"). Every node
 * is an element overlay/renderBlocks.tsx draws (div, p, h1-h6, ul, ol, li, strong, em, a, img, hr, br, table
 * rows and cells, button, label, input, textarea, small, span) with props shared/guides/checkBuildingBlocks.ts
 * allows; text is always a node's `content` (React text, escaped), never markup. What markdown has and the
 * renderer has not is drawn with what it has: code as a monospace span or div, a blockquote as a div with a
 * border, strikethrough as a styled span. Links keep http(s) and mailto addresses, images http(s) ones;
 * any other address leaves the text without it. Pure.
 */
import type { Token } from 'markdown-it';
import type { DomNode, Guide, GuideAction } from '../../shared/guides/guides';
import type { SegmentSubject } from '../../shared/segments/segmentConditions';
import { fillText, valueText, type ButtonTag, type VariableTag } from './parseTags';
import { metaOf, type QuestionMeta } from './parseStepMarkdown';

/**
 * Where a `[[Go to step ...]]` button goes for this visitor: a step id; the end of the guide; 'none' when the
 * agent would refuse the jump (the button is left out); null when the guide has no such step (the tag is text).
 */
export type GoToTarget = { stepId: string } | 'end' | 'none' | null;

/** What converting one step needs beside its tokens. */
export interface BlocksContext {
  guideId: string;
  stepId: string;
  /** The visitor's guide.json payload: `{{...}}` values come from it. */
  subject: SegmentSubject;
  /** Resolves a go-to target (a position or a step id) for this visitor. */
  goTo(target: string): GoToTarget;
}

/** A step's content and what goes with it. */
export interface StepBlocks {
  domJson: DomNode;
  /** The guide `polls` records of the step's questions (the worker types answers by them, guides §5). */
  polls: NonNullable<Guide['polls']>;
  /** A question is marked `(required)`: the step's attributes.isRequired (guides §3). */
  required: boolean;
}

type PollRecord = StepBlocks['polls'][number];

const MONOSPACE = 'font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;';

/** Block tokens that open an element, and the element (markdown-it's own tags otherwise). */
const BLOCK_TAGS: Record<string, string> = { blockquote_open: 'div' };
const BLOCK_STYLE: Record<string, string> = { blockquote_open: 'border-inline-start: 3px solid #d1d5db; padding-inline-start: 10px; margin: 8px 0;' };

/** Converts a step's tokens. */
export function markdownToBlocks(tokens: readonly Token[], ctx: BlocksContext): StepBlocks {
  const root: DomNode = { type: 'div', props: { id: 'guide-base' }, children: [] };
  const stack: Array<DomNode | null> = [root];
  // Known before the walk: a button written above a question sends its answers too, and a required question
  // makes the others optional.
  const questions = tokens.filter((t) => t.type === 'wm_question').map((t) => metaOf<QuestionMeta>(t));
  const state: RenderState = { ctx, buttons: 0, questions: 0, hasQuestions: questions.length > 0, required: questions.some((q) => q.required), sends: false, polls: [] };
  const top = () => [...stack].reverse().find((n): n is DomNode => n !== null)!;
  const put = (node: DomNode) => (top().children ??= []).push(node);

  for (const token of tokens) {
    if (token.nesting === 1) {
      // A tight list's paragraphs are hidden: their text goes straight into the list item.
      if (token.hidden) {
        stack.push(null);
        continue;
      }
      const node: DomNode = { type: BLOCK_TAGS[token.type] ?? token.tag, props: blockProps(token) };
      put(node);
      stack.push(node);
    } else if (token.nesting === -1) {
      stack.pop();
    } else if (token.type === 'inline') {
      const nodes = inlineNodes(token.children ?? [], state);
      const parent = top();
      const only = nodes[0];
      // A block holding text alone carries it as its content.
      if (nodes.length === 1 && only && isTextSpan(only) && !parent.children?.length && parent.content === undefined) parent.content = only.content;
      else (parent.children ??= []).push(...nodes);
    } else if (token.type === 'fence' || token.type === 'code_block') {
      put({ type: 'div', props: { style: `${MONOSPACE} white-space: pre-wrap; background: #f3f4f6; padding: 8px; border-radius: 4px;` }, content: token.content.replace(/\n$/, '') });
    } else if (token.type === 'hr') {
      put({ type: 'hr', props: {} });
    } else if (token.type === 'wm_question') {
      for (const node of questionNodes(metaOf<QuestionMeta>(token), state)) put(node);
    } else if (token.type === 'wm_plain') {
      put(plainParagraph((metaOf<{ text: string }>(token)).text));
    }
    // wm_skip: judged by applyMarkdown before the step is converted. html_block: never, raw HTML is off.
  }

  // The answers of a step's questions go with its Next, Go to step and Send buttons; a step with questions and
  // none of those gets a Send button so that no answer is lost.
  if (state.hasQuestions && !state.sends) {
    root.children!.push(buttonNode({ kind: 'send', label: 'Send' }, state) as DomNode);
  }
  return { domJson: root, polls: state.polls, required: state.required };
}

/**
 * A step's markdown as plain text, its tags not read (the site config `guideMarkdown` off, issue #17): one
 * paragraph per block of lines, the lines kept.
 */
export function plainTextBlocks(source: string): DomNode {
  const paragraphs = source.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/).map((p) => p.replace(/^\n+|\n+$/g, '')).filter((p) => p.trim() !== '');
  return { type: 'div', props: { id: 'guide-base' }, children: paragraphs.map(plainParagraph) };
}

function plainParagraph(text: string): DomNode {
  return { type: 'p', props: { style: 'white-space: pre-wrap;' }, content: text };
}

/** What converting a step keeps track of. */
interface RenderState {
  ctx: BlocksContext;
  buttons: number;
  /** Questions converted so far. */
  questions: number;
  hasQuestions: boolean;
  /** One of the step's questions is required (guides §3 attributes.isRequired). */
  required: boolean;
  /** A button that sends the answers (Next, Go to step, Send) was written. */
  sends: boolean;
  polls: PollRecord[];
}

/** Props markdown-it gives a block: an ordered list's start, a table cell's alignment. */
function blockProps(token: Token): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  const start = token.attrGet('start');
  const style = token.attrGet('style');
  if (token.type === 'ordered_list_open' && start !== null && /^\d+$/.test(String(start))) props.start = Number(start);
  if ((token.type === 'th_open' || token.type === 'td_open') && typeof style === 'string' && /^text-align:(left|right|center)$/.test(style)) props.style = style;
  if (BLOCK_STYLE[token.type]) props.style = BLOCK_STYLE[token.type];
  return props;
}

/** A span holding text only (what text between elements becomes). */
function isTextSpan(node: DomNode): node is DomNode & { content: string } {
  return node.type === 'span' && node.props === undefined && node.children === undefined && typeof node.content === 'string';
}

/** The inline children of a block as building blocks: text spans and elements, tags filled in. */
function inlineNodes(tokens: readonly Token[], state: RenderState): DomNode[] {
  const out: DomNode[] = [];
  const stack: DomNode[] = [];
  let text = '';
  const flush = () => {
    if (text) add({ type: 'span', content: text });
    text = '';
  };
  const add = (node: DomNode) => {
    const parent = stack[stack.length - 1];
    if (parent) (parent.children ??= []).push(node);
    else out.push(node);
  };
  const open = (node: DomNode) => {
    flush();
    add(node);
    stack.push(node);
  };
  const close = () => {
    flush();
    const node = stack.pop();
    // An element that ended up holding one text span carries the text itself.
    if (node?.children?.length === 1 && isTextSpan(node.children[0]!)) {
      node.content = node.children[0]!.content;
      delete node.children;
    }
  };

  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'text_special':
        text += token.content;
        break;
      case 'softbreak':
        text += '\n';
        break;
      case 'hardbreak':
        flush();
        add({ type: 'br', props: {} });
        break;
      case 'code_inline':
        flush();
        add({ type: 'span', props: { style: `${MONOSPACE} background: #f3f4f6; padding: 0 3px; border-radius: 3px;` }, content: token.content });
        break;
      case 'strong_open':
      case 'em_open':
        open({ type: token.tag, props: {} });
        break;
      case 's_open':
        open({ type: 'span', props: { style: 'text-decoration: line-through;' } });
        break;
      case 'link_open': {
        const href = safeAddress(token.attrGet('href'), ['http:', 'https:', 'mailto:']);
        const title = String(token.attrGet('title') ?? '');
        // A link the renderer would not follow is its text alone.
        open(href ? { type: 'a', props: { href, target: '_blank', ...(title ? { title } : {}) } } : { type: 'span', props: {} });
        break;
      }
      case 'strong_close':
      case 'em_close':
      case 's_close':
      case 'link_close':
        close();
        break;
      case 'image': {
        const src = safeAddress(token.attrGet('src'), ['http:', 'https:']);
        const alt = altText(token.children ?? [], state.ctx.subject);
        const title = String(token.attrGet('title') ?? '');
        if (src) {
          flush();
          add({ type: 'img', props: { src, alt, ...(title ? { title } : {}), style: 'max-width: 100%;' } });
        } else {
          text += alt;
        }
        break;
      }
      case 'wm_variable':
        // spec: "Markdown plugin behaviour (... metadata substitution)" — as text, never markup.
        text += valueText(metaOf<VariableTag>(token), state.ctx.subject);
        break;
      case 'wm_button': {
        const button = buttonNode(metaOf<ButtonTag>(token), state);
        if (button === 'text') {
          text += token.content;
        } else if (button !== 'omit') {
          flush();
          add(button);
        }
        break;
      }
      default:
        // html_inline cannot occur (raw HTML is off); anything else unknown keeps its text.
        text += token.content;
    }
  }
  while (stack.length) close();
  flush();
  return out;
}

/** An image's alt text: its description's text, tags filled in. */
function altText(tokens: readonly Token[], subject: SegmentSubject): string {
  return tokens.map((t) => (t.type === 'wm_variable' ? valueText(metaOf<VariableTag>(t), subject) : t.type === 'wm_button' ? t.content : t.children ? altText(t.children, subject) : t.content)).join('');
}

/** `value` when it is an absolute address of one of `protocols`. */
function safeAddress(value: string | number | null, protocols: string[]): string | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  try {
    return protocols.includes(new URL(value).protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * spec: "Markdown plugin behaviour (branching ...)" — a button with the agent's building-block actions, in the
 * shape of the guides in server/demo/guides. Next and Go to step send the step's answers first (submitPoll), so a
 * required question holds them (guides §3 attributes.isRequired). A go-to naming no step stays as its 'text'; one
 * the agent would refuse for this visitor is left out ('omit').
 */
function buttonNode(tag: ButtonTag, state: RenderState): DomNode | 'text' | 'omit' {
  const { ctx } = state;
  const id = `${ctx.stepId}-button-${state.buttons + 1}`;
  const action = (name: string, parameters: unknown[] = []): GuideAction => ({ action: name, eventType: 'click', parameters, source: id, destination: 'Global' });
  const send = state.hasQuestions;
  let actions: GuideAction[];
  if (tag.kind === 'goToStep') {
    const target = ctx.goTo(tag.target ?? '');
    if (target === null) return 'text';
    if (target === 'none') return 'omit';
    actions = [...(send ? [action('submitPoll')] : []), target === 'end' ? action('dismissGuide') : action('goToStep', [target.stepId])];
  } else if (tag.kind === 'next') {
    actions = [...(send ? [action('submitPoll')] : []), action('advanceGuide')];
  } else if (tag.kind === 'send') {
    actions = [action('submitPoll')];
  } else {
    actions = [action(tag.kind === 'back' ? 'previousStep' : tag.kind === 'dismiss' ? 'dismissGuide' : 'snoozeGuide')];
  }
  if (tag.kind === 'next' || tag.kind === 'goToStep' || tag.kind === 'send') state.sends = true;
  state.buttons += 1;
  return { type: 'button', props: { id }, content: fillText(tag.label, ctx.subject), actions };
}

/**
 * spec: "Markdown plugin behaviour (... required questions ...)" — a question as the poll building blocks the
 * designer writes (overlay/author/designer/designerPolls.ts): options as a radio group of a PickList poll, else
 * a text area of a FreeForm poll; `(required)` makes the step's attributes.isRequired.
 */
function questionNodes(meta: QuestionMeta, state: RenderState): DomNode[] {
  const { ctx } = state;
  state.questions += 1;
  const pollId = `${ctx.stepId}-q${state.questions}`;
  const questionId = `${pollId}-question`;
  const question = fillText(meta.text, ctx.subject);
  // guides §3 attributes.isRequired holds back every question not marked `data-poll-optional`
  // (overlay/renderBlocks.tsx): on a step with a required question, those not marked required are.
  const required = state.required && !meta.required ? { 'data-poll-optional': '' } : {};
  const words: DomNode[] = [{ type: 'span', content: question }];
  if (meta.required) words.push({ type: 'small', props: { style: 'color: #6b7280;' }, content: ' (required)' });
  if (meta.options.length === 0) {
    state.polls.push({ id: pollId, attributes: { type: 'FreeForm' } });
    return [
      { type: 'label', props: { id: questionId, for: pollId, 'data-poll-question': pollId, style: 'display: block;' }, children: words },
      { type: 'textarea', props: { id: pollId, name: pollId, 'data-poll-id': pollId, rows: 3, ...required, ...(meta.required ? { 'aria-required': 'true' } : {}) } },
    ];
  }
  state.polls.push({ id: pollId, attributes: { type: 'PickList' } });
  const radios = meta.options.map((option): DomNode => {
    const label = fillText(option, ctx.subject);
    return {
      type: 'label',
      props: { style: 'display: block;' },
      children: [
        { type: 'input', props: { type: 'radio', name: pollId, value: label, 'data-poll-id': pollId, 'aria-label': label, ...required } },
        { type: 'span', content: ` ${label}` },
      ],
    };
  });
  return [
    { type: 'p', props: { id: questionId, 'data-poll-question': pollId }, children: words },
    { type: 'div', props: { role: 'radiogroup', 'aria-labelledby': questionId, ...(meta.required ? { 'aria-required': 'true' } : {}) }, children: radios },
  ];
}
