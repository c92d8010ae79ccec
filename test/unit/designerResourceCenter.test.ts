/**
 * Issue #15, a resource center in the designer: the form <-> its top-level and module guides (as the agent reads
 * them, shared/surfaces/chooseResourceCenter), modules it does not write kept untouched, and the live preview's
 * verdict through the agent's own choice.
 */
import { describe, expect, it } from 'vitest';
import { checkGuideBody } from '../../server/guides/checkGuideBody';
import type { Guide } from '../../shared/guides/guides';
import {
  fromResourceCenterGuides,
  isResourceCenter,
  moduleProblem,
  newModule,
  newResourceCenter,
  previewResourceCenter,
  toResourceCenterGuides,
} from '../../overlay/author/designer/designerResourceCenter';

const seq = () => {
  let n = 0;
  return () => ((n++ * 7) % 36) / 36;
};
const listedGuide = (id: string, name: string): Guide => ({ id, name, launchMethod: 'api', steps: [{ id: `${id}-1`, guideId: id, type: 'lightbox', domJson: { type: 'div', children: [{ type: 'p', content: name }] } }] });
const page = { url: 'https://app.example/projects', device: 'desktop' as const, now: 0 };

describe('issue #15 designer: a resource center', () => {
  it('writes its module guides and its top-level guide as the agent reads them, each passing the server checks; reads them back', () => {
    const random = seq();
    const rc = newResourceCenter('https://app.example/projects?tab=2', random);
    rc.name = 'Help';
    rc.position = 'top-left';
    rc.modules = [
      { ...newModule(rc.id, 'guideList', random), title: 'Guides', guideIds: ['g1', 'g2'] },
      { ...newModule(rc.id, 'iframe', random), title: 'Docs', url: 'https://docs.example/' },
      { ...newModule(rc.id, 'custom', random), title: 'Contact', text: 'Mail us.\n\nOr call.' },
      { ...newModule(rc.id, 'sandbox', random), title: 'Notes', text: 'Read me.' },
      { ...newModule(rc.id, 'integration', random), title: 'Help desk', provider: 'zendesk', service: 'knowledge base' },
    ];
    const guides = toResourceCenterGuides(rc);
    for (const g of guides) expect(checkGuideBody(g, g.id)).toBeNull();
    const top = guides.at(-1)!;
    expect(isResourceCenter(top)).toBe(true);
    expect(top).toMatchObject({ id: rc.id, name: 'Help', launchMethod: 'badge', attributes: { resourceCenter: { isTopLevel: true, children: rc.modules.map((m) => m.id), position: 'top-left' } } });
    expect(top.steps[0]!.regexUrlRule).toBe(rc.pageRule);
    const [list, frame, custom, sandbox, desk] = guides;
    expect(sandbox!.attributes!.resourceCenter).toEqual({ isModule: true, moduleId: 'sandbox' });
    expect(desk!.attributes!.resourceCenter).toEqual({ isModule: true, moduleId: 'integration', integrationProvider: 'zendesk', integrationName: 'knowledge base' });
    expect(list!.attributes!.resourceCenter).toEqual({ isModule: true, moduleId: 'guideList', children: ['g1', 'g2'] });
    expect(frame!.steps[0]!.contentUrl).toBe('https://docs.example/');
    expect(custom!.steps[0]!.domJson!.children!.map((b) => b.content)).toEqual(['Mail us.', 'Or call.']);
    expect(fromResourceCenterGuides(top, guides.slice(0, 5))).toEqual(rc);
    // The agent reads each module as the designer wrote it.
    const listed = new Map([['g1', listedGuide('g1', 'A')], ['g2', listedGuide('g2', 'B')]]);
    const shown = previewResourceCenter({ ...rc, pageRule: '' }, listed, page);
    expect('view' in shown && shown.view.modules.map((m) => [m.kind, m.integration ?? null])).toEqual([
      ['guideList', null], ['iframe', null], ['custom', null], ['sandbox', null], ['integration', { provider: 'zendesk', name: 'knowledge base' }],
    ]);
  });

  it('keeps a module it cannot read (an unknown kind, a missing guide) in its place, untouched, and fields of stored guides it does not edit', () => {
    const rc = newResourceCenter('https://app.example/');
    const chat: Guide = { id: 'chat', name: 'Chat', launchMethod: 'api', attributes: { resourceCenter: { isModule: true, moduleId: 'video' } }, steps: [{ id: 'chat-1', guideId: 'chat', type: 'lightbox' }] };
    const storedTop: Guide = { ...toResourceCenterGuides(rc).at(-1)!, attributes: { resourceCenter: { isTopLevel: true, children: [rc.modules[0]!.id, 'chat'] }, activation: { selector: '#help' } } };
    const read = fromResourceCenterGuides(storedTop, [chat]);
    expect(read.modules.map((m) => [m.id, m.kind, m.text])).toEqual([[rc.modules[0]!.id, 'kept', 'unreadable'], ['chat', 'kept', 'video']]);
    expect(moduleProblem(read.modules[1]!)).toBeNull();
    const written = toResourceCenterGuides(read, new Map([[storedTop.id, storedTop]]));
    // Only the top-level guide is written: the kept modules are not, and stay its children in order.
    expect(written.map((g) => g.id)).toEqual([rc.id]);
    expect(written[0]!.attributes).toMatchObject({ resourceCenter: { children: [rc.modules[0]!.id, 'chat'] }, activation: { selector: '#help' } });
  });

  it('says what a module lacks', () => {
    const m = newModule('rc', 'guideList');
    expect(moduleProblem(m)).toMatch(/Pick at least one guide/);
    expect(moduleProblem({ ...m, title: ' ' })).toBe('Give the module a title.');
    expect(moduleProblem({ ...newModule('rc', 'iframe'), url: 'javascript:alert(1)' })).toMatch(/http\(s\) address/);
    expect(moduleProblem(newModule('rc', 'custom'))).toBe('Write the text to show.');
    expect(moduleProblem({ ...newModule('rc', 'integration'), provider: 'drift', service: 'messaging' })).toBe('drift offers chat.');
  });

  it('previews what the agent would show on this page, or why nothing', () => {
    const rc = newResourceCenter(page.url);
    rc.modules = [{ ...rc.modules[0]!, title: 'Guides', guideIds: ['g1'] }, { ...newModule(rc.id, 'custom'), title: 'Contact', text: 'Mail us.' }];
    const shown = previewResourceCenter(rc, new Map([['g1', listedGuide('g1', 'Export to CSV')]]), page);
    expect('view' in shown && shown.view.modules.map((m) => [m.title, m.items.map((i) => i.name)])).toEqual([['Guides', ['Export to CSV']], ['Contact', []]]);
    expect('view' in shown && shown.view.modules[1]!.content?.children?.[0]?.content).toBe('Mail us.');
    // The listed guide not loaded yet: the list module has nothing, the text module alone shows.
    const partly = previewResourceCenter(rc, new Map(), page);
    expect('view' in partly && partly.view.modules.map((m) => m.title)).toEqual(['Contact']);
    // Another page: nothing, with the agent's reason.
    const elsewhere = previewResourceCenter(rc, new Map(), { ...page, url: 'https://app.example/billing' });
    expect(elsewhere).toEqual({ reason: expect.stringMatching(/page/) });
  });
});
