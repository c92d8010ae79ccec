/**
 * Issue #15, the designer's pure parts: the element rule proposal (resilient first, generated names never, the
 * match count and warnings) and the designer's guide <-> the guide JSON the server checks.
 */
import { describe, expect, it } from 'vitest';
import { checkGuideBody } from '../../server/guides/checkGuideBody';
import { fromGuide, newGuide, newStep, pageRuleFor, toGuide } from '../../overlay/author/designer/designerGuide';
import { checkRule, isGenerated, proposeRule, type ElementFacts } from '../../overlay/author/designer/proposeRule';

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

  it('an NPS step asks 0-10 and a reason, sent with submitPoll; the guide lists both polls and reads back', () => {
    const d = newGuide('https://app.example/', fixed);
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox', nps: { reasonLabel: 'Why?' }, buttons: [] };
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
    expect(fromGuide(guide).steps[0]!.nps).toEqual({ reasonLabel: 'Why?' });
    // Turned off again, the polls go.
    expect(toGuide({ ...d, steps: [{ ...d.steps[0]!, nps: null }] }, guide).polls).toBeUndefined();
  });

  it('a lightbox has no element rule; an empty page rule means every page', () => {
    const d = newGuide('https://app.example/', fixed);
    d.pageRule = '';
    d.steps[0] = { ...d.steps[0]!, type: 'lightbox', elementPathRule: '#ignored' };
    const step = toGuide(d).steps[0]!;
    expect(step.elementPathRule).toBeUndefined();
    expect(step.regexUrlRule).toBeUndefined();
  });
});
