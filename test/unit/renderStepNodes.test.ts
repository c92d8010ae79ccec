// @vitest-environment node
/**
 * Issue #34: a step's surface rendered in the worker with the overlay's own components (react-dom/server, no DOM)
 * as the plain nodes the page builds without React (StepToShow.painted), its blocks' actions by index.
 */
import { describe, expect, it } from 'vitest';
import type { DomNode } from '../../shared/guides/guides';
import type { PaintedNode, StepToShow } from '../../shared/protocol';
import { renderStepNodes } from '../../overlay/render/renderStepNodes';
import { warmUp } from '../../overlay/render/warmUp';
import { STEP_RENDERER_GLOBAL, type StepRenderer } from '../../shared/guides/stepRenderer';

const stepOf = (content: DomNode, extra: Partial<StepToShow> = {}): StepToShow => ({
  guideId: 'g1',
  guideName: 'Welcome',
  stepId: 's1',
  type: 'lightbox',
  stepIndex: 0,
  stepCount: 1,
  content,
  attributes: {},
  hideCredits: true,
  reason: 'auto',
  ...extra,
});

/** Every element of `nodes`, depth first. */
function elements(nodes: PaintedNode[]): Array<Exclude<PaintedNode, string>> {
  return nodes.flatMap((n) => (typeof n === 'string' ? [] : [n, ...elements(n[2])]));
}
const attr = (node: Exclude<PaintedNode, string>, name: string) => node[1].find(([n]) => n === name)?.[1];

describe('issue #34 renderStepNodes', () => {
  it('runs without a DOM', () => {
    expect(typeof document).toBe('undefined');
    expect(typeof window).toBe('undefined');
  });

  it('a lightbox: its backdrop, then its dialog, exactly as the overlay draws it', () => {
    const painted = renderStepNodes(stepOf({ type: 'p', content: 'Hi' }));
    expect(painted).toEqual({
      nodes: [
        ['div', [['class', 'wm-backdrop'], ['style', 'z-index:10000']], []],
        [
          'div',
          [
            ['class', 'wm-step wm-lightbox'],
            ['role', 'dialog'],
            ['aria-modal', 'true'],
            ['aria-label', 'Welcome'],
            ['aria-describedby', 'wm-content-s1'],
            ['tabindex', '-1'],
            ['data-guide-id', 'g1'],
            ['data-step-id', 's1'],
            ['style', 'width:500px;z-index:300000'],
          ],
          [
            ['button', [['type', 'button'], ['class', 'wm-close'], ['aria-label', 'close']], ['\u00d7']],
            ['div', [['id', 'wm-content-s1'], ['data-waymark-step', '']], [['p', [], ['Hi']]]],
          ],
        ],
      ],
      actions: [],
    });
  });

  it('a mobile lightbox is the fitted dialog, with its step position and credit', () => {
    const painted = renderStepNodes(stepOf({ type: 'p', content: 'Hi' }, { type: 'mobile-lightbox', stepCount: 3, stepIndex: 1, hideCredits: false }))!;
    const dialog = painted.nodes[1] as Exclude<PaintedNode, string>;
    expect(attr(dialog, 'class')).toBe('wm-step wm-lightbox wm-mobile-lightbox');
    expect(attr(dialog, 'style')).toBe('width:min(320px, calc(100vw - 32px));z-index:300000');
    expect(dialog[2][2]).toEqual(['div', [['class', 'wm-footer']], [['span', [], ['Step 2 of 3']], ['span', [['class', 'wm-credit']], ['Powered by Waymark']]]]);
  });

  it('a tooltip: one box with its caret (hidden with caret false), its width and theme as CSS text', () => {
    const painted = renderStepNodes(stepOf({ type: 'p', content: 'Tip' }, { type: 'tooltip', attributes: { caret: false, width: 300, layoutDir: 'top' } }))!;
    expect(painted.nodes).toHaveLength(1);
    const box = painted.nodes[0] as Exclude<PaintedNode, string>;
    expect(attr(box, 'class')).toBe('wm-step wm-tooltip');
    expect(attr(box, 'style')).toBe('width:300px;z-index:300000');
    expect(box[2][0]).toEqual(['div', [['class', 'wm-caret'], ['hidden', '']], []]);
  });

  it('a banner at the bottom: a labelled region whose style says so', () => {
    const painted = renderStepNodes(stepOf({ type: 'p', content: 'News' }, { type: 'banner', attributes: { position: 'bottom' } }))!;
    const box = painted.nodes[0] as Exclude<PaintedNode, string>;
    expect(painted.nodes).toHaveLength(1);
    expect(attr(box, 'role')).toBe('region');
    expect(attr(box, 'style')).toBe('max-height:500px;z-index:300000;top:auto;bottom:0');
  });

  it("a theme's colours stay CSS custom properties in the style text", () => {
    const painted = renderStepNodes(stepOf({ type: 'p', content: 'x' }, { attributes: { theme: { background: '#123456' } } }))!;
    const style = attr(painted.nodes[1] as Exclude<PaintedNode, string>, 'style')!;
    expect(style).toMatch(/^width:500px;z-index:300000;--wm-[\w-]+:#123456/);
  });

  it('text and attribute values come decoded: < & " \' are characters, never markup', () => {
    const text = `1 < 2 & "three" isn't <b>bold</b>`;
    const painted = renderStepNodes(stepOf({ type: 'h1', content: text, props: { title: text } }))!;
    const h1 = elements(painted.nodes).find((e) => e[0] === 'h1')!;
    expect(h1).toEqual(['h1', [['title', text]], [text]]);
    // The dialog is named by its first heading.
    expect(attr(painted.nodes[1] as Exclude<PaintedNode, string>, 'aria-label')).toBe(text);
  });

  it("a poll: its fields as the browser's React renders them (value, checked, selected), each block's actions by index", () => {
    const poll: DomNode = {
      type: 'div',
      children: [
        { type: 'input', props: { type: 'text', 'data-poll-id': 'q1', placeholder: 'Say', value: 'hi' } },
        { type: 'input', props: { type: 'radio', name: 'nps', value: '9', checked: true, 'data-poll-id': 'nps' } },
        { type: 'input', props: { type: 'radio', name: 'nps', value: '10', 'data-poll-id': 'nps' } },
        { type: 'select', props: { 'data-poll-id': 'pick', value: 'b' }, children: [{ type: 'option', props: { value: 'a' }, content: 'A' }, { type: 'option', props: { value: 'b' }, content: 'B' }] },
        { type: 'textarea', props: { 'data-poll-id': 'more', value: 'a < b' } },
        { type: 'div', content: 'Skip', actions: [{ action: 'dismissGuide' }] },
        { type: 'button', content: 'Send', actions: [{ action: 'submitPoll' }, { action: 'advanceGuide' }] },
      ],
    };
    const painted = renderStepNodes(stepOf(poll))!;
    const content = elements(painted.nodes).find((e) => attr(e, 'data-waymark-step') === '')!;
    expect(content[2]).toEqual([
      [
        'div',
        [],
        [
          ['input', [['type', 'text'], ['data-poll-id', 'q1'], ['placeholder', 'Say'], ['value', 'hi']], []],
          ['input', [['type', 'radio'], ['data-poll-id', 'nps'], ['name', 'nps'], ['checked', ''], ['value', '9']], []],
          ['input', [['type', 'radio'], ['data-poll-id', 'nps'], ['name', 'nps'], ['value', '10']], []],
          ['select', [['data-poll-id', 'pick']], [['option', [['value', 'a']], ['A']], ['option', [['value', 'b'], ['selected', '']], ['B']]]],
          ['textarea', [['data-poll-id', 'more']], ['a < b']],
          // Not a native control: a button for the keyboard, as in the browser's render.
          ['div', [['data-wm-action', '0'], ['role', 'button'], ['tabindex', '0']], ['Skip']],
          ['button', [['data-wm-action', '1'], ['type', 'button']], ['Send']],
        ],
      ],
    ]);
    expect(painted.actions).toEqual([[{ action: 'dismissGuide' }], [{ action: 'submitPoll' }, { action: 'advanceGuide' }]]);
  });

  it('nested blocks with actions each get their own index, in document order', () => {
    const painted = renderStepNodes(
      stepOf({
        type: 'div',
        actions: [{ action: 'advanceGuide' }],
        children: [
          { type: 'a', props: { href: 'https://example.com/' }, content: 'Docs', actions: [{ action: 'openLink', parameters: ['https://example.com/'] }] },
          { type: 'button', content: 'Back', actions: [{ action: 'previousStep' }] },
        ],
      }),
    )!;
    const marked = elements(painted.nodes).filter((e) => attr(e, 'data-wm-action') !== undefined);
    expect(marked.map((e) => [e[0], painted.actions[Number(attr(e, 'data-wm-action'))]!.map((a) => a.action)])).toEqual([
      ['div', ['advanceGuide']],
      ['a', ['openLink']],
      ['button', ['previousStep']],
    ]);
  });

  it("an author's own data-wm-action never reaches the page (it would run another block's actions)", () => {
    const painted = renderStepNodes(
      stepOf({
        type: 'div',
        children: [
          { type: 'p', content: 'plain', props: { 'data-wm-action': '0' } },
          { type: 'button', content: 'Go', props: { 'data-wm-action': '5' }, actions: [{ action: 'advanceGuide' }] },
        ],
      }),
    )!;
    const marked = elements(painted.nodes).filter((e) => attr(e, 'data-wm-action') !== undefined);
    expect(marked.map((e) => [e[0], attr(e, 'data-wm-action')])).toEqual([['button', '0']]);
  });

  it("keeps the renderer's sanitising: a script block stays an empty noscript, handlers and url() styles are dropped", () => {
    const painted = renderStepNodes(
      stepOf({
        type: 'div',
        children: [
          { type: 'script', content: 'alert(1)', props: { src: 'https://evil.example/x.js' } },
          { type: 'p', content: 'x', props: { onclick: 'alert(1)', style: 'color: red; background: url(https://evil.example/)' } },
          { type: 'a', props: { href: 'javascript:alert(1)' }, content: 'y' },
          { type: 'marquee', content: 'z' },
        ],
      }),
    )!;
    const content = elements(painted.nodes).find((e) => attr(e, 'data-waymark-step') === '')!;
    expect(content[2]).toEqual([['div', [], [['noscript', [], []], ['p', [['style', 'color:red']], ['x']], ['a', [], ['y']], ['div', [], ['z']]]]]);
  });

  it("an image is in the step, and React's preload hint for it is not", () => {
    const painted = renderStepNodes(stepOf({ type: 'img', props: { src: 'https://cdn.example/a.png', alt: 'A & B' } }))!;
    expect(painted.nodes.map((n) => (typeof n === 'string' ? n : n[0]))).toEqual(['div', 'div']);
    expect(elements(painted.nodes).find((e) => e[0] === 'img')).toEqual(['img', [['src', 'https://cdn.example/a.png'], ['alt', 'A & B']], []]);
  });

  it('nothing for an embedded step or the types it does not draw', () => {
    const content: DomNode = { type: 'p', content: 'x' };
    expect(renderStepNodes(stepOf(content, { embed: { selector: '#here', method: 'prepend' } }))).toBeUndefined();
    expect(renderStepNodes(stepOf(content, { type: 'whatsnew' }))).toBeUndefined();
    expect(renderStepNodes(stepOf(content, { type: 'launcher' }))).toBeUndefined();
  });

  it('every render gives its own indexes, from 0', () => {
    const step = stepOf({ type: 'button', content: 'Go', actions: [{ action: 'advanceGuide' }] });
    expect(renderStepNodes(step)!.actions).toEqual([[{ action: 'advanceGuide' }]]);
    expect(renderStepNodes(step)!.actions).toEqual([[{ action: 'advanceGuide' }]]);
  });

  it("the chunk's entry assigns the shared global, warmed up", async () => {
    const globals = globalThis as Record<string, unknown>;
    delete globals[STEP_RENDERER_GLOBAL];
    await import('../../overlay/render/index');
    expect((globals[STEP_RENDERER_GLOBAL] as StepRenderer).renderStepNodes).toBe(renderStepNodes);
    delete globals[STEP_RENDERER_GLOBAL];
  });

  it('the warm-up renders each surface once, and a render that throws does not stop the chunk loading', () => {
    const types: string[] = [];
    warmUp({ renderStepNodes: (step) => (types.push(step.type), renderStepNodes(step)) });
    expect(types).toEqual(['lightbox', 'tooltip', 'banner']);
    expect(() =>
      warmUp({
        renderStepNodes() {
          throw new Error('no');
        },
      }),
    ).not.toThrow();
  });
});
