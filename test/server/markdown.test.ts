/**
 * Issue #17 markdown plugin (analytics-spec: "Markdown plugin behaviour (branching, required questions, step
 * skipping, metadata substitution): tag syntax not shown"; ours in docs/markdown.md): the tags read, the skip
 * markers judged, and a step's markdown converted to building blocks that the agent's own check
 * (shared/guides/checkBuildingBlocks.ts) passes and that hold no element overlay/renderBlocks.tsx does not draw.
 */
import { describe, expect, it } from 'vitest';
import type { DomNode, Guide, GuideAction } from '../../shared/guides/guides';
import { checkBuildingBlocks } from '../../shared/guides/checkBuildingBlocks';
import { applyMarkdown, convertGuide } from '../../server/markdown/applyMarkdown';
import { checkStepMarkdown } from '../../server/markdown/checkStepMarkdown';
import { plainTextBlocks } from '../../server/markdown/markdownToBlocks';
import { isSkipped, parseSkipMarker, type SkipMarker } from '../../server/markdown/parseSkipMarker';
import { parseStepMarkdown } from '../../server/markdown/parseStepMarkdown';
import { fillText, parseButton, parseVariable } from '../../server/markdown/parseTags';

/** overlay/renderBlocks.tsx TAGS: what the renderer draws (anything else becomes a div there). */
const RENDERED = new Set([
  'div', 'span', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'button', 'img', 'a', 'ul', 'ol', 'li', 'strong',
  'em', 'b', 'i', 'u', 'br', 'hr', 'section', 'header', 'footer', 'label', 'input', 'select', 'option',
  'textarea', 'form', 'small', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'figure', 'figcaption', 'noscript',
]);

const ada = { visitorId: 'ada-1', accountId: 'acme', url: 'https://app.example/reports', metadata: { visitor: { firstName: 'Ada', role: 'admin', tags: ['a', 'b'], seats: 3 }, account: { plan: 'pro' }, parentAccount: {} } };
const nobody = { visitorId: 'anon', metadata: {} };

const guideOf = (...markdown: string[]): Guide => ({
  id: 'g',
  launchMethod: 'auto',
  steps: markdown.map((md, i) => ({ id: `g-${i + 1}`, guideId: 'g', type: 'lightbox', markdown: md })),
});

/** Every node of a tree, depth first. */
function nodes(root: DomNode): DomNode[] {
  return [root, ...(root.children ?? []).flatMap(nodes)];
}
/** The text a visitor reads (content of every node, in order). */
function textOf(root: DomNode): string {
  return nodes(root).map((n) => n.content ?? '').join('');
}
const buttons = (root: DomNode) => nodes(root).filter((n) => n.type === 'button');
const actionsOf = (button: DomNode) => (button.actions ?? []).map((a: GuideAction) => (a.parameters?.length ? `${a.action}(${a.parameters.join()})` : a.action));

/** Samples covering every construct: each is converted and checked as the agent would. */
const SAMPLES: Record<string, string> = {
  headings: '# One {{visitor.firstName}}\n## Two\n### Three\n#### Four\n##### Five\n###### Six',
  inline: 'Some **strong {{account.plan}}**, *em*, ~~gone~~, `code {{x}}` and a line  \nbreak.',
  lists: '- one\n- two\n  - nested\n\n3. three\n4. four\n\n- loose\n\n- list',
  links: '[docs](https://example.com "Docs") [mail](mailto:a@b.c) [js](javascript:alert(1)) [rel](/reports) ![pic](https://example.com/a.png) ![data](data:image/png;base64,AAAA)',
  code: '```js\nconst a = "<b>";\n```\n\n    indented code\n\n> a quote\n\n---',
  table: '| a | b |\n|:-|-:|\n| {{visitor.firstName \\| x}} | **2** |',
  html: '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> <b>bold</b>',
  buttons: '[[Back]] [[Next: Go, {{visitor.firstName | friend}}]] [[Dismiss: No thanks]] [[Snooze]] [[Send]] [[Go to step 2: Reports]] [[Go to step g-3]]',
  questions: '??? How did you hear about us? (required)\n- ( ) Search\n- ( ) A friend\n\n??? Anything else? (optional)\n\n[[Next]]',
  bad: '{{nope}} [[Jump]] {{visitor.x\n<!-- skip when -->\n??? \n- ( ) x',
  deep: `${'> '.repeat(40)}deep\n\n${Array.from({ length: 30 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n')}`,
};

describe('issue #17 markdown plugin: tags', () => {
  it('reads {{path | fallback}} with segmentConditions paths, and says what is wrong', () => {
    expect(parseVariable(' visitor.firstName | there ')).toEqual({ ok: true, tag: { path: 'visitor.firstName', fallback: 'there' } });
    expect(parseVariable('accountId')).toEqual({ ok: true, tag: { path: 'accountId', fallback: '' } });
    expect(parseVariable('')).toMatchObject({ ok: false, problem: expect.stringMatching(/names no value/) });
    expect(parseVariable('user.name')).toMatchObject({ ok: false, problem: expect.stringMatching(/unknown path/) });
    expect(parseVariable('visitor first')).toMatchObject({ ok: false, problem: expect.stringMatching(/no spaces/) });
  });

  it('metadata substitution: the value as text, lists joined, the fallback when missing or empty', () => {
    expect(fillText('Hi {{visitor.firstName | there}} ({{visitor.tags}}, {{visitor.seats}} seats)', ada)).toBe('Hi Ada (a, b, 3 seats)');
    expect(fillText('Hi {{visitor.firstName | there}}{{account.plan}}!', nobody)).toBe('Hi there!');
    expect(fillText('{{visitor.firstName}}', { metadata: { visitor: { firstName: '<b>x</b>' } } })).toBe('<b>x</b>');
    expect(fillText('{{visitor.constructor | none}} {{visitor.toString | none}}', { metadata: { visitor: {} } })).toBe('none none');
    expect(fillText('\\{{visitor.firstName}}', ada)).toBe('{{visitor.firstName}}');
  });

  it('reads [[buttons]] with optional labels', () => {
    expect(parseButton('Next')).toEqual({ ok: true, tag: { kind: 'next', label: 'Next' } });
    expect(parseButton('back: Go back')).toEqual({ ok: true, tag: { kind: 'back', label: 'Go back' } });
    expect(parseButton('Go to step 3: Show me reports')).toEqual({ ok: true, tag: { kind: 'goToStep', target: '3', label: 'Show me reports' } });
    expect(parseButton('Go to step intro-2')).toEqual({ ok: true, tag: { kind: 'goToStep', target: 'intro-2', label: 'Go to step intro-2' } });
    expect(parseButton('Jump')).toMatchObject({ ok: false, problem: expect.stringMatching(/is not a button/) });
    expect(parseButton('Next:')).toMatchObject({ ok: false, problem: expect.stringMatching(/empty label/) });
    expect(parseButton('Next: {{nope}}')).toMatchObject({ ok: false, problem: expect.stringMatching(/unknown path/) });
  });
});

describe('issue #17 markdown plugin: step skipping markers', () => {
  const marker = (text: string): SkipMarker => {
    const reading = parseSkipMarker(text);
    if (!reading.ok) throw new Error(reading.problem);
    return reading.marker;
  };
  const skips = (text: string, subject: object) => isSkipped([marker(text)], subject);

  it('judges each operator with segmentConditions matching; a missing value meets no condition', () => {
    expect(skips('skip if visitor.role is "admin"', ada)).toBe(true);
    expect(skips('skip if visitor.role is admin', nobody)).toBe(false);
    expect(skips('skip if visitor.role is not admin', ada)).toBe(false);
    expect(skips('skip if visitor.role is not admin', nobody)).toBe(true);
    expect(skips('skip unless account.plan is one of "pro", enterprise', ada)).toBe(false);
    expect(skips('skip unless account.plan is one of "pro", enterprise', nobody)).toBe(true);
    expect(skips("skip if url contains '/reports'", ada)).toBe(true);
    expect(skips('skip if visitor.firstName starts with "Ad" and visitor.seats is 3', ada)).toBe(true);
    expect(skips('skip if visitor.firstName starts with "Ad" and visitor.seats is "3"', ada)).toBe(false);
    expect(skips('skip if visitor.tags contains b', ada)).toBe(true);
  });

  it('says what is wrong with a marker it cannot read', () => {
    for (const [text, why] of [
      ['skip when visitor.role is admin', /followed by 'if' or 'unless'/],
      ['skip if role is admin', /unknown path/],
      ['skip if visitor.role equals admin', /where is, is not/],
      ['skip if visitor.role is', /ends with the value/],
      ['skip if visitor.role is "admin', /not closed/],
      ['skip if visitor.role is admin or visitor.x is 1', /'or' where 'and' or the end/],
      ['skip if visitor.role starts with 3', /compares with a text/],
      ['skip if visitor.role is one of', /ends with the value/],
      ['skip if visitor.role is one of a,', /followed by values/],
    ] as const) {
      expect(parseSkipMarker(text), text).toMatchObject({ ok: false, problem: expect.stringMatching(why) });
    }
  });
});

describe('issue #17 markdown plugin: conversion through the building-block allow-list', () => {
  for (const [name, markdown] of Object.entries(SAMPLES)) {
    it(`sample "${name}" passes the agent's checkBuildingBlocks and uses only elements the renderer draws`, () => {
      const guide = guideOf(markdown, 'step two', 'step three');
      const served = convertGuide(guide, ada, { enabled: true })!;
      const content = served.steps[0]!.domJson!;
      const check = checkBuildingBlocks(content, 'g', 'g-1');
      expect(check.ok, JSON.stringify(check)).toBe(true);
      for (const node of nodes(content)) {
        expect(RENDERED.has(node.type), node.type).toBe(true);
        expect(node.type).not.toBe('script');
      }
      expect(served.steps[0]).not.toHaveProperty('markdown');
    });
  }

  it('never passes raw HTML: markup is text', () => {
    const content = convertGuide(guideOf(SAMPLES.html!), ada, { enabled: true })!.steps[0]!.domJson!;
    expect(textOf(content)).toContain('<script>alert(1)</script>');
    expect(textOf(content)).toContain('<img src=x onerror=alert(1)> <b>bold</b>');
    expect(nodes(content).map((n) => n.type)).toEqual(['div', 'p', 'p']);
  });

  it('keeps http(s) and mailto links and http(s) images only', () => {
    const content = convertGuide(guideOf(SAMPLES.links!), ada, { enabled: true })!.steps[0]!.domJson!;
    const links = nodes(content).filter((n) => n.type === 'a').map((n) => n.props!.href);
    expect(links).toEqual(['https://example.com', 'mailto:a@b.c']);
    expect(nodes(content).filter((n) => n.type === 'img').map((n) => n.props!.src)).toEqual(['https://example.com/a.png']);
    expect(textOf(content)).toContain('rel');
  });

  it('metadata substitution happens as text in headings, cells, labels and questions, never as markup', () => {
    const subject = { metadata: { visitor: { firstName: '**Ada** [[Dismiss]] <i>', role: 'x' }, account: { plan: 'pro' } } };
    const guide = guideOf('# Hi {{visitor.firstName}}\n\n??? Is {{account.plan}} right for you, {{visitor.firstName}}?\n- ( ) Yes, {{account.plan}}\n\n[[Next: On, {{visitor.firstName}}]]', 'two');
    const content = convertGuide(guide, subject, { enabled: true })!.steps[0]!.domJson!;
    expect(content.children![0]).toEqual({ type: 'h1', props: {}, content: 'Hi **Ada** [[Dismiss]] <i>' });
    expect(textOf(content)).toContain('Is pro right for you, **Ada** [[Dismiss]] <i>?');
    expect(buttons(content).map((b) => b.content)).toEqual(['On, **Ada** [[Dismiss]] <i>']);
    expect(nodes(content).find((n) => n.type === 'input')?.props?.value).toBe('Yes, pro');
  });

  it('branching: buttons carry the agent\'s actions; Go to step by position or id, past skipped steps', () => {
    const guide = guideOf(SAMPLES.buttons!, '<!-- skip if visitor.role is admin -->\ntwo', 'three');
    const served = convertGuide(guide, ada, { enabled: true })!;
    expect(served.steps.map((s) => s.id)).toEqual(['g-1', 'g-3']);
    const list = buttons(served.steps[0]!.domJson!);
    expect(list.map((b) => [b.content, actionsOf(b)])).toEqual([
      ['Back', ['previousStep']],
      ['Go, Ada', ['advanceGuide']],
      ['No thanks', ['dismissGuide']],
      ['Snooze', ['snoozeGuide']],
      ['Send', ['submitPoll']],
      // Step 2 is skipped for an admin: the next step served after it.
      ['Reports', ['goToStep(g-3)']],
      ['Go to step g-3', ['goToStep(g-3)']],
    ]);
    // The shape of the demo guides' actions (server/demo/guides).
    expect(list[1]!.actions![0]).toEqual({ action: 'advanceGuide', eventType: 'click', parameters: [], source: 'g-1-button-2', destination: 'Global' });
    expect(list[1]!.props).toEqual({ id: 'g-1-button-2' });
  });

  it('a Go to step whose target and every step after it are skipped ends the guide; one naming no step stays text, one to its own step is left out', () => {
    const guide = guideOf('[[Go to step 2: Skip ahead]] [[Go to step 9]] [[Go to step 1]]', '<!-- skip if visitor.role is admin -->\ntwo');
    const content = convertGuide(guide, ada, { enabled: true })!.steps[0]!.domJson!;
    expect(buttons(content).map((b) => [b.content, actionsOf(b)])).toEqual([['Skip ahead', ['dismissGuide']]]);
    expect(textOf(content)).toBe('Skip ahead [[Go to step 9]] ');
  });

  it('a Go to step the agent would refuse for this visitor is left out: from the first served step straight to the last', () => {
    const guide = guideOf('[[Go to step 4: To the end]] [[Go to step 3: Third]]', 'two', 'three', 'four');
    expect(buttons(convertGuide(guide, ada, { enabled: true })!.steps[0]!.domJson!).map((b) => b.content)).toEqual(['Third']);
    // Step 3 skipped: Third goes on to step 4, the last, so it is left out too.
    const skipped = guideOf('[[Go to step 3: Third]] [[Next]]', 'two', '<!-- skip if visitor.role is admin -->\nthree', 'four');
    expect(buttons(convertGuide(skipped, ada, { enabled: true })!.steps[0]!.domJson!).map((b) => b.content)).toEqual(['Next']);
  });

  it('required questions: PickList radios and a FreeForm text area, the step isRequired, the others data-poll-optional, answers sent by Next', () => {
    const served = convertGuide({ ...guideOf(SAMPLES.questions!, 'two'), polls: [{ id: 'kept', attributes: { type: 'YesNo' } }] }, ada, { enabled: true })!;
    const step = served.steps[0]!;
    expect(step.attributes?.isRequired).toBe(true);
    expect(served.polls).toEqual([
      { id: 'kept', attributes: { type: 'YesNo' } },
      { id: 'g-1-q1', attributes: { type: 'PickList' } },
      { id: 'g-1-q2', attributes: { type: 'FreeForm' } },
    ]);
    const polled = nodes(step.domJson!).filter((n) => n.props?.['data-poll-id']);
    expect(polled.map((n) => [n.type, n.props!['data-poll-id'], n.props!.value ?? '', 'data-poll-optional' in n.props!])).toEqual([
      ['input', 'g-1-q1', 'Search', false],
      ['input', 'g-1-q1', 'A friend', false],
      ['textarea', 'g-1-q2', '', true],
    ]);
    expect(buttons(step.domJson!).map(actionsOf)).toEqual([['submitPoll', 'advanceGuide']]);
    expect(textOf(step.domJson!)).toContain('How did you hear about us? (required)');
    expect(served.steps[1]!.attributes).toBeUndefined();
  });

  it('a step with questions and no button that sends gets a Send button; an optional question leaves isRequired unset', () => {
    const step = convertGuide(guideOf('??? What could we do better?\n\n[[Dismiss]]'), ada, { enabled: true })!.steps[0]!;
    expect(step.attributes?.isRequired).toBeUndefined();
    expect(buttons(step.domJson!).map((b) => [b.content, actionsOf(b)])).toEqual([['Dismiss', ['dismissGuide']], ['Send', ['submitPoll']]]);
    expect(nodes(step.domJson!).some((n) => n.props && 'data-poll-optional' in n.props)).toBe(false);
  });

  it('step skipping: the visitor\'s steps only, and no guide at all when every step is skipped', () => {
    const guide = guideOf('<!-- skip if visitor.role is admin -->\none', '<!-- skip unless account.plan is pro -->\ntwo', 'three');
    expect(convertGuide(guide, ada, { enabled: true })!.steps.map((s) => s.id)).toEqual(['g-2', 'g-3']);
    expect(convertGuide(guide, nobody, { enabled: true })!.steps.map((s) => s.id)).toEqual(['g-1', 'g-3']);
    const allSkipped = guideOf('<!-- skip if visitor.role is admin -->\none');
    expect(applyMarkdown([allSkipped, guideOf('kept')], ada, { enabled: true }).map((g) => g.steps.length)).toEqual([1]);
    // The preview shows every step.
    expect(convertGuide(guide, ada, { enabled: true, skipSteps: false })!.steps.map((s) => s.id)).toEqual(['g-1', 'g-2', 'g-3']);
    // An ordinary comment is an author's note: never shown.
    expect(textOf(convertGuide(guideOf('<!-- note to self -->\nHello'), ada, { enabled: true })!.steps[0]!.domJson!)).toBe('Hello');
  });

  it('a tag it cannot read stays as the text written; nothing is lost', () => {
    const content = convertGuide(guideOf(SAMPLES.bad!), ada, { enabled: true })!.steps[0]!.domJson!;
    const text = textOf(content);
    for (const written of ['{{nope}}', '[[Jump]]', '{{visitor.x', '<!-- skip when -->', '???', '- ( ) x']) expect(text).toContain(written);
    expect(buttons(content)).toEqual([]);
  });

  it('guideMarkdown off: the source as plain text paragraphs, no tag read, nothing skipped', () => {
    const source = '<!-- skip if visitor.role is admin -->\n# Hi {{visitor.firstName}}\n[[Next]]\n\n??? Why? (required)\n- ( ) <b>x</b>';
    const served = convertGuide(guideOf(source), ada, { enabled: false })!;
    const step = served.steps[0]!;
    expect(step).not.toHaveProperty('markdown');
    expect(step.attributes).toBeUndefined();
    expect(served.polls).toBeUndefined();
    expect(step.domJson).toEqual({
      type: 'div',
      props: { id: 'guide-base' },
      children: [
        { type: 'p', props: { style: 'white-space: pre-wrap;' }, content: '<!-- skip if visitor.role is admin -->\n# Hi {{visitor.firstName}}\n[[Next]]' },
        { type: 'p', props: { style: 'white-space: pre-wrap;' }, content: '??? Why? (required)\n- ( ) <b>x</b>' },
      ],
    });
    expect(checkBuildingBlocks(step.domJson, 'g', 'g-1').ok).toBe(true);
    expect(plainTextBlocks('\r\n\r\n  \n')).toEqual({ type: 'div', props: { id: 'guide-base' }, children: [] });
  });

  it('a guide without markdown steps is served as it is; a translated step keeps its translation', () => {
    const plain = guideOf();
    expect(applyMarkdown([plain], ada, { enabled: true })[0]).toBe(plain);
    const translated: Guide = {
      ...guideOf('<!-- skip if visitor.role is x -->\nHello', 'Two'),
      language: 'fr',
      authoredLanguage: 'en',
      translationStates: { fr: { 'g-1': 'abc' } },
    };
    translated.steps[0]!.domJson = { type: 'div', props: {}, children: [{ type: 'p', content: 'Bonjour' }] };
    const served = convertGuide(translated, ada, { enabled: true })!;
    expect(served.steps[0]!.domJson!.children![0]!.content).toBe('Bonjour');
    expect(served.steps[1]!.domJson!.content).toBeUndefined();
    expect(textOf(served.steps[1]!.domJson!)).toBe('Two');
    expect(convertGuide(translated, { metadata: { visitor: { role: 'x' } } }, { enabled: true })!.steps.map((s) => s.id)).toEqual(['g-2']);
  });
});

describe('issue #17 markdown plugin: the console check names the step and the line', () => {
  const ids = ['intro', 'reports', 'done', 'extra'];
  it('accepts every tag that reads', () => {
    expect(checkStepMarkdown(SAMPLES.questions!, 'intro', ids)).toBeNull();
    expect(checkStepMarkdown('[[Go to step 3]] [[Go to step reports: x]] {{visitor.a | b}}\n<!-- skip if accountId is acme -->', 'intro', ids)).toBeNull();
  });

  it('refuses a malformed tag with the step and its line', () => {
    const cases: Array<[unknown, string]> = [
      [7, 'step intro: markdown must be a string'],
      ['x'.repeat(20_001), 'step intro: markdown is longer than 20000 characters'],
      ['Hello\n\nthere [[Jump]]', "step intro, markdown line 3: [[Jump]] is not a button"],
      ['Hello\n{{visitor}}', 'step intro, markdown line 2: {{visitor}}: unknown path'],
      ['one\ntwo {{visitor.a\n', "step intro, markdown line 2: '{{' is not closed by '}}' on its line"],
      ['a\n\n<!-- skip if visitor.a is -->', 'step intro, markdown line 3: skip marker "skip if visitor.a is": a condition ends'],
      ['??? \n- ( ) x', "step intro, markdown line 1: a question follows '???'"],
      ['??? Why?\n- ( ) \n', 'step intro, markdown line 1: question "Why?" has an option without words'],
      ['ok\n\n[[Go to step 5]]', 'step intro, markdown line 3: [[Go to step 5]]: the guide has no step 5 (it has 4)'],
      ['[[Go to step extra]]', 'step intro, markdown line 1: [[Go to step extra]]: the agent refuses a jump from the first step straight to the last'],
      ['[[Go to step nope: x]]', "step intro, markdown line 1: [[Go to step nope: x]]: the guide has no step with the id 'nope'"],
      ['[[Go to step intro]]', 'step intro, markdown line 1: [[Go to step intro]]: a button cannot go to its own step'],
      ['| a |\n|---|\n| {{visitor.x | y}} |', "step intro, markdown line 3: '{{' is not closed"],
    ];
    for (const [markdown, message] of cases) expect(checkStepMarkdown(markdown, 'intro', ids), String(markdown).slice(0, 40)).toMatch(new RegExp(`^${escape(message)}`));
  });

  it('lists problems by line', () => {
    expect(parseStepMarkdown('[[A]]\n\n{{b}}').problems.map((p) => p.line)).toEqual([1, 3]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
