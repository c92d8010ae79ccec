/**
 * Issue #15, the designer's pure parts: the element rule proposal (resilient first, generated names never, the
 * match count and warnings) and the designer's guide <-> the guide JSON the server checks.
 */
import { describe, expect, it } from 'vitest';
import { checkGuideBody } from '../../server/guides/checkGuideBody';
import { fromGuide, newGuide, newStep, pageRuleFor, toGuide } from '../../overlay/author/designer/designerGuide';
import { checkRule, isGenerated, proposeRule, type ElementFacts } from '../../overlay/author/designer/proposeRule';
import { pollValue } from '../../worker/guides/createStepActions';
import { clampScale } from '../../overlay/author/designer/designerPolls';
import { matchesContainsRules } from '../../shared/eligibility/matchesContainsRules';
import { whatsNewItems } from '../../shared/surfaces/launcherPanel';
import type { DomNode, Guide } from '../../shared/guides/guides';

const el = (tag: string, extra: Partial<ElementFacts> = {}): ElementFacts => ({ tag, classes: [], attributes: {}, nthOfType: 1, ...extra });
/** A page where each selector matches as many elements as this table says (0 when absent). */
const page = (counts: Record<string, number>) => (selector: string) => counts[selector] ?? 0;

describe('issue #15 designer: element rule proposal', () => {
  it('prefers a stable id, then a naming attribute, then stable classes', () => {
    expect(proposeRule([el('BUTTON', { id: 'save' })], page({ '#save': 1 }))).toEqual({ rule: '#save', matches: 1, warnings: [] });
    expect(proposeRule([el('BUTTON', { id: ':r7:', attributes: { 'data-testid': 'save-button' } })], page({ '[data-testid="save-button"]': 1 })).rule).toBe('[data-testid="save-button"]');
    expect(proposeRule([el('BUTTON', { classes: ['css-1x2y3z', 'primary', 'export'] })], page({ 'button.primary.export': 1 })).rule).toBe('button.primary.export');
  });

  it('goes under a unique ancestor when the element alone is not unique', () => {
    const chain = [el('BUTTON', { classes: ['primary'] }), el('FORM', { id: 'settings-form' })];
    expect(proposeRule(chain, page({ 'button.primary': 3, '#settings-form': 1, '#settings-form button.primary': 1 })).rule).toBe('#settings-form button.primary');
  });

  it('falls back to positions from the nearest unique ancestor, and says so', () => {
    const chain = [el('LI', { nthOfType: 3 }), el('UL', { nthOfType: 1 }), el('NAV', { id: 'menu' })];
    const proposal = proposeRule(chain, page({ li: 9, ul: 2, '#menu': 1, '#menu > ul:nth-of-type(1) > li:nth-of-type(3)': 1 }));
    expect(proposal.rule).toBe('#menu > ul:nth-of-type(1) > li:nth-of-type(3)');
    expect(proposal.warnings).toEqual(['found by position only: a change to the page layout may lose it']);
  });

  it('tells generated names from names people chose', () => {
    for (const name of ['css-1x2y3z', 'sc-bdVaJa', 'jsx-123456', 'Button_primary__3xYz1', ':r1:', 'ember1234', 'a1b2c3d4e5f6', 'aB3dE5gH7jK9']) {
      expect(isGenerated(name), name).toBe(true);
    }
    for (const name of ['primary', 'export-button', 'nav-item', 'h-10', 'col-6', 'settings-form', 'btn-lg']) {
      expect(isGenerated(name), name).toBe(false);
    }
  });

  it('warns about an ambiguous, a missing, or a generated rule written by hand', () => {
    expect(checkRule('button', 4).warnings).toEqual(['ambiguous: matches 4 elements on this page; the step anchors to the first']);
    expect(checkRule('#gone', 0).warnings).toEqual(['matches nothing on this page']);
    expect(checkRule('.css-1x2y3z', 1).warnings).toEqual(['leans on generated names (css-1x2y3z): the next build of the app may change them']);
    expect(checkRule('#save', 1).warnings).toEqual([]);
  });
});

describe('issue #15 designer: the guide it writes', () => {
  const fixed = () => 0.5;

  it('a new two-step tooltip guide passes the server\'s checks, with the page rule of this page', () => {
    const d = newGuide('https://app.example/settings?tab=1#x', fixed);
    d.steps[0]!.elementPathRule = '#one';
    d.steps.push({ ...newStep(d.id, 1, 'tooltip', () => 0.25), elementPathRule: '#two', buttons: [{ label: 'Done', action: 'next' }] });
    const guide = toGuide(d);
    expect(checkGuideBody(guide, d.id)).toBeNull();
    expect(guide).toMatchObject({ id: d.id, launchMethod: 'auto', isMultiStep: true, attributes: { priority: 0 } });
    expect(guide.steps.map((s) => [s.type, s.elementPathRule, s.regexUrlRule])).toEqual([
      ['tooltip', '#one', '^https?://[^/]+/settings/?(?:[?#].*)?$'],
      ['tooltip', '#two', '^https?://[^/]+/settings/?(?:[?#].*)?$'],
    ]);
    expect(new RegExp(guide.steps[0]!.regexUrlRule!).test('http://127.0.0.1:8080/settings?x')).toBe(true);
    const button = guide.steps[0]!.domJson!.children!.find((c) => c.type === 'button')!;
    expect(button.actions).toEqual([{ action: 'advanceGuide', eventType: 'click', parameters: [], source: button.props!.id, destination: 'Global' }]);
  });

  it('reads a stored guide back as it wrote it, and keeps what it does not edit', () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, elementPathRule: '#x', imageUrl: 'https://img.example/a.png', buttons: [{ label: 'Docs', action: 'link', url: 'https://docs.example' }, { label: 'Close', action: 'dismiss' }] };
    const stored = { ...toGuide(d), redisplay: { interval: 5 }, steps: toGuide(d).steps.map((s) => ({ ...s, attributes: { ...s.attributes, blockOutUI: { enabled: true } } })) };
    const back = fromGuide(stored);
    expect(back.steps[0]).toEqual(d.steps[0]);
    expect(back.pageRule).toBe(pageRuleFor('https://app.example/'));
    const again = toGuide({ ...back, name: 'Renamed' }, stored);
    expect(again.redisplay).toEqual({ interval: 5 });
    expect(again.steps[0]!.attributes).toMatchObject({ blockOutUI: { enabled: true } });
    expect(checkGuideBody(again, d.id)).toBeNull();
  });

  it("issue #17: a button may run the app's custom action by name (customAction, guides §5), and reads back", () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, buttons: [{ label: 'Chat', action: 'custom', customAction: 'openChat' }] };
    const guide = toGuide(d);
    const button = guide.steps[0]!.domJson!.children!.find((c) => c.type === 'button')!;
    expect(button.actions).toEqual([{ action: 'customAction', eventType: 'click', parameters: ['openChat'], source: button.props!.id, destination: 'Global' }]);
    expect(checkGuideBody(guide, d.id)).toBeNull();
    expect(fromGuide(guide).steps[0]!.buttons).toEqual([{ label: 'Chat', action: 'custom', customAction: 'openChat' }]);
  });

  it('an NPS step asks 0-10 and a reason, sent with submitPoll; the guide lists both polls and reads back', () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox', poll: { kind: 'nps', reasonLabel: 'Why?' }, buttons: [] };
    const guide = toGuide(d);
    expect(checkGuideBody(guide, d.id)).toBeNull();
    const id = d.steps[0]!.id;
    expect(guide.polls).toEqual([
      { id: `${id}-nps`, numericResponses: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], attributes: { type: 'NPSRating' } },
      { id: `${id}-reason`, attributes: { type: 'FreeForm' } },
    ]);
    const blocks = JSON.stringify(guide.steps[0]!.domJson);
    expect(blocks.match(/"data-poll-id":"[^"]+-nps"/g)).toHaveLength(11);
    expect(blocks).toContain('"action":"submitPoll"');
    expect(fromGuide(guide).steps[0]!.poll).toEqual({ kind: 'nps', reasonLabel: 'Why?' });
    // Its Send button is the question's, not one of the step's buttons.
    expect(fromGuide(guide).steps[0]!.buttons).toEqual([]);
    // Turned off again, the polls go.
    expect(toGuide({ ...d, steps: [{ ...d.steps[0]!, poll: null }] }, guide).polls).toBeUndefined();
  });

  it('a lightbox written by the designer has no element rule; an empty page rule means every page', () => {
    const d = newGuide('https://app.example/', fixed);
    d.pageRule = '';
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox', elementPathRule: '#ignored' };
    const step = toGuide(d).steps[0]!;
    expect(step.elementPathRule).toBeUndefined();
    expect(step.regexUrlRule).toBeUndefined();
  });

  it("a hand-written lightbox keeps its element rule (its block-out's element) through a designer save", () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox' };
    const stored = toGuide(d);
    stored.steps[0]!.elementPathRule = '#report-table';
    stored.steps[0]!.attributes = { ...stored.steps[0]!.attributes, blockOutUI: { enabled: true } };
    const saved = toGuide(fromGuide(stored), stored).steps[0]!;
    expect(saved.elementPathRule).toBe('#report-table');
    expect(saved.attributes?.blockOutUI).toEqual({ enabled: true });
  });

  it('a multiple-choice step: one radio per option of a PickList poll, sent with submitPoll; read back as written', () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox', body: 'Tell us.', poll: { kind: 'choice', question: 'Which do you use?', options: ['Reports', 'Exports', 'Sharing'] } };
    const guide = toGuide(d);
    expect(checkGuideBody(guide, d.id)).toBeNull();
    const id = d.steps[0]!.id;
    expect(guide.polls).toEqual([{ id: `${id}-choice`, attributes: { type: 'PickList' } }]);
    const radios = flat(guide.steps[0]!.domJson!).filter((b) => b.type === 'input');
    expect(radios.map((r) => [r.props!.type, r.props!.name, r.props!['data-poll-id'], r.props!.value])).toEqual([
      ['radio', `${id}-choice`, `${id}-choice`, 'Reports'],
      ['radio', `${id}-choice`, `${id}-choice`, 'Exports'],
      ['radio', `${id}-choice`, `${id}-choice`, 'Sharing'],
    ]);
    expect(flat(guide.steps[0]!.domJson!).find((b) => b.actions?.some((a) => a.action === 'submitPoll'))?.content).toBe('Send');
    // The worker keeps a PickList answer as the option's text (not parsed as a number).
    expect(pollValue('Exports', 'PickList', guide.polls![0]!.numericResponses)).toBe('Exports');
    const back = fromGuide(guide).steps[0]!;
    expect(back).toEqual(d.steps[0]);
    // The question's words are not read back as the step's text, even with no text of its own.
    const noBody = toGuide({ ...d, steps: [{ ...d.steps[0]!, body: '' }] });
    expect(fromGuide(noBody).steps[0]!.body).toBe('');
    // Empty options are left out of the step.
    const blank = toGuide({ ...d, steps: [{ ...d.steps[0]!, poll: { kind: 'choice', question: 'Q', options: ['A', ' ', 'B'] } }] });
    expect(fromGuide(blank).steps[0]!.poll).toEqual({ kind: 'choice', question: 'Q', options: ['A', 'B'] });
  });

  it('an open-text step: a FreeForm text area sent with submitPoll; switching the question replaces its polls, others stay', () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox', poll: { kind: 'text', question: 'What could we do better?' }, buttons: [] };
    const handPoll = { id: 'hand-written', attributes: { type: 'YesNo' } };
    const stored: Guide = { ...toGuide(d), polls: [...toGuide(d).polls!, handPoll] };
    const id = d.steps[0]!.id;
    expect(checkGuideBody(stored, d.id)).toBeNull();
    expect(flat(stored.steps[0]!.domJson!).find((b) => b.type === 'textarea')?.props).toEqual({ id: `${id}-text`, 'data-poll-id': `${id}-text` });
    expect(fromGuide(stored).steps[0]).toEqual(d.steps[0]);
    const asNps = toGuide({ ...d, steps: [{ ...d.steps[0]!, poll: { kind: 'nps', reasonLabel: 'Why?' } }] }, stored);
    expect(asNps.polls!.map((p) => p.id)).toEqual(['hand-written', `${id}-nps`, `${id}-reason`]);
    expect(toGuide({ ...d, steps: [{ ...d.steps[0]!, poll: null }] }, stored).polls).toEqual([handPoll]);
  });

  it('a yes/no step: Yes sent as 1 and No as 0 of a YesNo poll; read back as written', () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox', poll: { kind: 'yesno', question: 'Did this help?' }, buttons: [] };
    const guide = toGuide(d);
    expect(checkGuideBody(guide, d.id)).toBeNull();
    const id = d.steps[0]!.id;
    expect(guide.polls).toEqual([{ id: `${id}-yesno`, numericResponses: [0, 1], attributes: { type: 'YesNo' } }]);
    const radios = flat(guide.steps[0]!.domJson!).filter((b) => b.type === 'input');
    expect(radios.map((r) => [r.props!['aria-label'], r.props!.value])).toEqual([['Yes', '1'], ['No', '0']]);
    expect(pollValue(String(radios[0]!.props!.value), 'YesNo', guide.polls![0]!.numericResponses)).toBe(1);
    expect(fromGuide(guide).steps[0]).toEqual(d.steps[0]);
  });

  it('a number-scale step: one radio per number of a NumberScale poll, with the words at both ends; read back as written', () => {
    const d = newGuide('https://app.example/', fixed);
    const poll = { kind: 'scale' as const, question: 'How easy?', min: 1, max: 7, minLabel: 'Hard', maxLabel: 'Easy' };
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox', body: 'One question.', poll, buttons: [] };
    const guide = toGuide(d);
    expect(checkGuideBody(guide, d.id)).toBeNull();
    const id = d.steps[0]!.id;
    expect(guide.polls).toEqual([{ id: `${id}-scale`, numericResponses: [1, 2, 3, 4, 5, 6, 7], attributes: { type: 'NumberScale' } }]);
    const blocks = flat(guide.steps[0]!.domJson!);
    expect(blocks.filter((b) => b.type === 'input').map((r) => r.props!.value)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(blocks.filter((b) => b.props?.['data-poll-scale-end']).map((b) => b.content)).toEqual(['Hard', 'Easy']);
    const back = fromGuide(guide).steps[0]!;
    expect(back).toEqual(d.steps[0]);
    // The words at the ends are the question's, not the step's text.
    expect(back.body).toBe('One question.');
  });

  it('a required question is the step\'s attributes.isRequired; an NPS reason stays optional', () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox', poll: { kind: 'nps', reasonLabel: 'Why?' }, required: true, buttons: [] };
    const guide = toGuide(d);
    expect(guide.steps[0]!.attributes).toMatchObject({ isRequired: true });
    expect(flat(guide.steps[0]!.domJson!).find((b) => b.type === 'textarea')?.props).toMatchObject({ 'data-poll-optional': '' });
    expect(fromGuide(guide).steps[0]!.required).toBe(true);
    // Without a question there is nothing to require.
    expect(toGuide({ ...d, steps: [{ ...d.steps[0]!, poll: null }] }, guide).steps[0]!.attributes).not.toHaveProperty('isRequired');
  });

  it('a scale stays whole, ordered and within 0-10, at most 11 numbers', () => {
    expect(clampScale(1, 5)).toEqual({ min: 1, max: 5 });
    expect(clampScale(5, 3)).toEqual({ min: 5, max: 6 });
    expect(clampScale(-4, 40)).toEqual({ min: 0, max: 10 });
    expect(clampScale(10, 10)).toEqual({ min: 9, max: 10 });
    expect(clampScale(2.4, 6.6)).toEqual({ min: 2, max: 7 });
    expect(clampScale(Number.NaN, Number.NaN)).toEqual({ min: 1, max: 5 });
  });

  it("a tooltip's caret gap and element contains rules are written where the agent reads them, and read back", () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = {
      ...d.steps[0]!,
      elementPathRule: '#total',
      arrowSize: 24,
      containsRules: [
        { matchType: 'greaterThan', matchValue: '10', dataType: 'number' },
        { matchType: 'notContains', matchValue: 'N/A', dataType: 'string' },
        { matchType: 'contains', matchValue: '  ', dataType: 'string' },
      ],
    };
    const guide = toGuide(d);
    expect(checkGuideBody(guide, d.id)).toBeNull();
    const step = guide.steps[0]!;
    expect(step.attributes).toMatchObject({ arrowSize: 24 });
    expect(step.attributes).not.toHaveProperty('caret');
    const noCaret = toGuide({ ...d, steps: [{ ...d.steps[0]!, caret: false }] }).steps[0]!;
    expect(noCaret.attributes).toMatchObject({ caret: false });
    expect(fromGuide({ ...guide, steps: [noCaret] }).steps[0]!.caret).toBe(false);
    // The blank rule is left out; the rest are the shim's to judge.
    expect(step.elementContainsRulesList).toEqual([
      { matchType: 'greaterThan', matchValue: '10', dataType: 'number' },
      { matchType: 'notContains', matchValue: 'N/A', dataType: 'string' },
    ]);
    expect(matchesContainsRules(step.elementContainsRulesList, ' 42 ').pass).toBe(true);
    expect(matchesContainsRules(step.elementContainsRulesList, '7').pass).toBe(false);
    expect(fromGuide(guide).steps[0]).toEqual({ ...d.steps[0], containsRules: d.steps[0]!.containsRules.slice(0, 2) });
    // Cleared, both fields go; a hand-written attribute beside them stays.
    const stored = { ...guide, steps: [{ ...step, attributes: { ...step.attributes, blockOutUI: { enabled: true } } }] };
    const cleared = toGuide({ ...d, steps: [{ ...d.steps[0]!, arrowSize: 0, containsRules: [] }] }, stored).steps[0]!;
    expect(cleared.attributes).not.toHaveProperty('arrowSize');
    expect(cleared.attributes).toMatchObject({ blockOutUI: { enabled: true } });
    expect(cleared).not.toHaveProperty('elementContainsRulesList');
  });

  it("a tooltip moves on with its buttons, or also when the visitor clicks or points at the element (advanceMethod)", () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, elementPathRule: '#export', advance: 'click' };
    const guide = toGuide(d);
    expect(guide.steps[0]!.advanceMethod).toBe('element click');
    expect(fromGuide(guide).steps[0]!.advance).toBe('click');
    expect(toGuide({ ...d, steps: [{ ...d.steps[0]!, advance: 'hover' }] }).steps[0]!.advanceMethod).toBe('mouseover');
    expect(toGuide({ ...d, steps: [{ ...d.steps[0]!, advance: 'buttons' }] }, guide).steps[0]).not.toHaveProperty('advanceMethod');
    expect(checkGuideBody(guide, d.id)).toBeNull();
  });

  it("a what's-new step of a launcher guide: title, date and text; listed as the launcher's feed item", () => {
    const d = { ...newGuide('https://app.example/', fixed), name: 'March release', launchMethod: 'launcher' };
    d.steps[0] = { ...newStep(d.id, 0, 'whatsnew', fixed), title: 'Exports are faster', date: '2025-03-01', body: 'Up to ten times.', buttons: [] };
    const guide = toGuide(d);
    expect(checkGuideBody(guide, d.id)).toBeNull();
    expect(guide.steps[0]!.type).toBe('whatsnew');
    expect(guide.steps[0]!.attributes).not.toHaveProperty('width');
    expect(guide.steps[0]!.domJson!.children!.map((c) => [c.type, c.content])).toEqual([
      ['h3', 'Exports are faster'],
      ['small', '2025-03-01'],
      ['p', 'Up to ten times.'],
    ]);
    expect(whatsNewItems([guide])).toEqual([{ guideId: d.id, stepId: d.steps[0]!.id, name: 'March release', seen: false }]);
    expect(fromGuide(guide)).toEqual({ ...d });
  });
});

function flat(node: DomNode): DomNode[] {
  return [node, ...(node.children ?? []).flatMap(flat)];
}
