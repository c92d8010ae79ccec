// @vitest-environment node
/**
 * Issue #34: a step's surface rendered in the worker with the overlay's own components as the plain nodes the page
 * builds without React (StepToShow.painted), its blocks' actions by index. As in the render chunk's build, the
 * components' React is staticReact here (the mocks below), rendered by renderToNodes; the expected nodes are what
 * React's own renderer (react-dom/server) makes of the same components, and the last tests hold the two side by
 * side over many steps.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { DomNode, GuideAction } from '../../shared/guides/guides';
import type { PaintedNode, PaintedStep, StepToShow } from '../../shared/protocol';
import { renderStepNodes } from '../../overlay/render/renderStepNodes';
import { warmUp } from '../../overlay/render/warmUp';
import { BLOCK_TAGS } from '../../overlay/blockTags';
import { STEP_RENDERER_GLOBAL, type StepRenderer } from '../../shared/guides/stepRenderer';
import { parseStaticMarkup } from './parseStaticMarkup';

const REACT_MODULES = ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime'];
vi.mock('react', () => import('../../overlay/render/staticReact'));
vi.mock('react/jsx-runtime', () => import('../../overlay/render/staticReact'));
vi.mock('react/jsx-dev-runtime', () => import('../../overlay/render/staticReact'));

/** The same surfaces rendered by React itself (react-dom/server), read back as nodes: the reference. */
async function reactRenderer(): Promise<(step: StepToShow) => PaintedStep | undefined> {
  vi.resetModules();
  for (const id of REACT_MODULES) vi.doUnmock(id);
  const React = await import('react');
  const { renderToStaticMarkup } = await import('react-dom/server');
  const { surfaceOf } = await import('../../overlay/render/renderStepNodes');
  const { ActionMarks } = await import('../../overlay/renderBlocks');
  return (step) => {
    const surface = surfaceOf(step);
    if (!surface) return undefined;
    const actions: GuideAction[][] = [];
    const mark = (list: GuideAction[]) => actions.push(list) - 1;
    const markup = renderToStaticMarkup(React.createElement(ActionMarks.Provider, { value: mark }, surface));
    // React 19 writes a `<link rel="preload" as="image">` hint ahead of the markup for each image, for a page's head.
    return { nodes: parseStaticMarkup(markup).filter((node) => typeof node === 'string' || node[0] !== 'link'), actions };
  };
}

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
  it('runs without a DOM, and without React', async () => {
    expect((await import('react')).useState).toBe((await import('../../overlay/render/staticReact')).useState);
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

  it('the warm-up renders each surface once, one task each, and a render that throws does not stop the chunk loading', () => {
    const types: string[] = [];
    const tasks: Array<() => void> = [];
    warmUp({ renderStepNodes: (step) => (types.push(step.type), renderStepNodes(step)) }, (run) => void tasks.push(run));
    // The lightbox at once; each other surface in a task of its own, so an answer coming meanwhile waits for one.
    expect(types).toEqual(['lightbox']);
    tasks.shift()!();
    expect(types).toEqual(['lightbox', 'tooltip']);
    tasks.shift()!();
    expect(types).toEqual(['lightbox', 'tooltip', 'banner']);
    expect(tasks).toEqual([]);
    const failing = () => {
      throw new Error('no');
    };
    expect(() => warmUp({ renderStepNodes: failing }, (run) => run())).not.toThrow();
  });
});

describe("issue #34 the worker's render draws what React draws", () => {
  const base = stepOf({ type: 'p', content: 'x' });
  const blocks: DomNode = {
    type: 'div',
    props: { id: 'guide-base', class: 'wm-blocks', style: { padding: 8, fontWeight: 700, lineHeight: 1.5, marginTop: 0, WebkitLineClamp: 2, color: ' red ' } },
    children: [
      { type: 'h2', content: 'Title & "more"', props: { 'aria-level': 2, 'data-open': true, 'aria-hidden': false } },
      { type: 'img', props: { src: 'https://cdn.example/a.png', alt: '', width: 120, height: '80' } },
      { type: 'label', props: { for: 'q1' }, content: 'Why?' },
      { type: 'input', props: { id: 'q1', type: 'text', name: 'why', value: 'because', disabled: true, min: 1 } },
      { type: 'input', props: { type: 'checkbox', name: 'ok', value: true, checked: 'yes', 'data-poll-id': 'ok' } },
      { type: 'select', props: { value: '2' }, children: [{ type: 'option', content: '1' }, { type: 'option', content: '2' }, { type: 'option', props: { value: 2 }, content: 'two' }] },
      { type: 'textarea', props: { placeholder: 'More', tabIndex: 3 }, content: 'typed' },
      { type: 'a', props: { href: '/docs', target: '_blank', title: 7 }, content: 'Docs', actions: [{ action: 'openLink', parameters: ['/docs'] }] },
      { type: 'span', content: 'Skip', props: { role: 'link' }, actions: [{ action: 'dismissGuide' }] },
      { type: 'ul', children: [{ type: 'li', content: 'one' }, { type: 'li', props: { value: 3 }, content: 'two' }] },
      { type: 'hr' },
      { type: 'br' },
      { type: 'p', props: { style: 'margin: 0; -webkit-box-shadow: none; border-top-width: 2px' }, content: '' },
    ],
  };
  const corpus: StepToShow[] = [
    { ...base, content: blocks },
    { ...base, content: blocks, type: 'mobile-lightbox', stepCount: 4, stepIndex: 3, hideCredits: false, attributes: { width: 400, autoHeight: false, height: 300 } },
    { ...base, content: blocks, type: 'tooltip', attributes: { layoutDir: 'right', width: 280, theme: { background: '#fff', border: '#e33', radius: 6 } } },
    { ...base, content: blocks, type: 'tooltip', attributes: { caret: false } },
    { ...base, content: blocks, type: 'banner', attributes: { position: 'bottom', height: 120, theme: { accent: '#0a0' } } },
    { ...base, content: blocks, type: 'banner', stepCount: 2, attributes: { isRequired: true, thankYouMessage: 'Merci' } },
    { ...base, guideName: 'No heading', content: { type: 'div', children: [{ type: 'p', content: 'text only' }] } },
  ];

  it('a corpus of steps: every surface, themes, poll fields, a select by value or text, styles with and without units', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const react = await reactRenderer();
    for (const step of corpus) expect(renderStepNodes(step), `${step.type} ${JSON.stringify(step.attributes)}`).toEqual(react(step));
    vi.restoreAllMocks();
  });

  it('any building blocks (a property over generated content)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const react = await reactRenderer();
    const text = fc.string({ maxLength: 12 });
    const value = fc.oneof(text, fc.integer({ min: -5, max: 500 }), fc.boolean());
    const styleObject = fc.dictionary(fc.constantFrom('padding', 'zIndex', 'opacity', 'flexGrow', 'lineHeight', 'marginTop', 'color', 'WebkitLineClamp', '--wm-x'), fc.oneof(text, fc.integer({ min: 0, max: 40 })), { maxKeys: 4 });
    const styleText = fc.array(fc.tuple(fc.constantFrom('color', 'padding', 'font-weight', '-webkit-box-flex', 'background'), text), { maxLength: 3 }).map((d) => d.map(([k, v]) => `${k}: ${v}`).join('; '));
    const propName = fc.constantFrom('id', 'class', 'src', 'href', 'alt', 'title', 'type', 'name', 'value', 'placeholder', 'role', 'tabIndex', 'target', 'width', 'height', 'for', 'checked', 'disabled', 'min', 'max', 'step', 'rel', 'data-poll-id', 'aria-label', 'data-open', 'onclick', 'hidden');
    const props = fc.oneof(
      fc.dictionary(propName, value, { maxKeys: 5 }),
      fc.record({ style: fc.oneof(styleObject, styleText) }),
    );
    const action = fc.record({ action: fc.constantFrom('advanceGuide', 'submitPoll', 'dismissGuide', 'previousStep') });
    const { node } = fc.letrec<{ node: DomNode }>((tie) => ({
      node: fc
        .record(
          {
            type: fc.constantFrom(...BLOCK_TAGS, 'script', 'marquee'),
            props,
            content: text,
            children: fc.array(tie('node'), { maxLength: 3, depthIdentifier: 'blocks' }),
            actions: fc.array(action, { maxLength: 2 }),
          },
          { requiredKeys: ['type'] },
        )
        // An option's content is its text: React's renderer refuses elements in it.
        .map((n) => (n.type === 'option' ? { ...n, children: undefined } : n)),
    }));
    const surface = fc.constantFrom<StepToShow['type']>('lightbox', 'mobile-lightbox', 'tooltip', 'banner');
    fc.assert(
      fc.property(node, surface, (content, type) => {
        const step = { ...base, type, content };
        expect(renderStepNodes(step)).toEqual(react(step));
      }),
      { numRuns: 300, seed: 34 },
    );
    vi.restoreAllMocks();
  });
});
