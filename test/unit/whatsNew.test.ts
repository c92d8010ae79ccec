import { describe, expect, it } from 'vitest';
import { WHATSNEW_SEEN_DELAY_MS } from '../../shared/constants';
import { isWhatsNewSeenDue, whatsNewItems } from '../../shared/surfaces/launcherPanel';
import { isAnnouncementInView } from '../../shared/surfaces/resourceCenterPanel';
import type { Guide, GuideLoadResponse, GuideStep } from '../../shared/guides/guides';
import type { WorkerInit } from '../../shared/protocol';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { createFakeClock, createFakeTransport, engineInit, PROBED } from './fakes';

describe("guides §9 What's-new seen delay", () => {
  it('is 1000 ms as the spec gives it', () => {
    expect(WHATSNEW_SEEN_DELAY_MS).toBe(1000);
  });

  it('is due once the item has been active for 1000 ms, not before, and never while out of view', () => {
    expect(isWhatsNewSeenDue(null, 5000)).toBe(false);
    expect(isWhatsNewSeenDue(1000, 1999)).toBe(false);
    expect(isWhatsNewSeenDue(1000, 2000)).toBe(true);
  });
});

describe("guides §2 What's-new item: rendered inside the launcher", () => {
  it('lists the whatsnew steps of the listed guides in order, with their seen state', () => {
    const guides = [
      { id: 'a', name: 'Alpha', steps: [{ id: 'a1', type: 'lightbox' }, { id: 'a2', type: 'whatsnew', seenState: 'none' }] },
      { id: 'b', steps: [{ id: 'b1', type: 'whatsnew', seenState: 'advanced' }, { id: 'b2', type: 'whatsnew' }] },
    ];
    expect(whatsNewItems(guides)).toEqual([
      { guideId: 'a', stepId: 'a2', name: 'Alpha', seen: false },
      { guideId: 'b', stepId: 'b1', name: 'b', seen: true },
      { guideId: 'b', stepId: 'b2', name: 'b', seen: false },
    ]);
  });

  it('becomes active once its top third is scrolled into view (the resource center rule, reused)', () => {
    const view = { top: 0, bottom: 300 };
    expect(isAnnouncementInView({ top: 240, bottom: 330 }, view)).toBe(true); // top third ends at 270
    expect(isAnnouncementInView({ top: 280, bottom: 370 }, view)).toBe(false); // top third ends at 310
  });
});

describe("guides §2 What's-new feed and building-block badges in the worker (guide load)", () => {
  const init: WorkerInit = engineInit(PROBED);
  const blocks = (title: string) => ({ type: 'div', props: {}, children: [{ type: 'h2', props: {}, content: title }] });
  const news = (id: string, domJson: unknown): Guide => ({ id, name: `News ${id}`, launchMethod: 'launcher', steps: [{ id: `${id}-1`, guideId: id, type: 'whatsnew', domJson } as GuideStep] });

  async function load(guides: Guide[], launcher: unknown) {
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify({ id: '1', guides, lastGuideStepSeen: {}, launcher } satisfies GuideLoadResponse) });
    const logs: string[] = [];
    const engine = createGuideEngine({ config: init, ports: { clock: createFakeClock(), transport }, log: (_l, m) => void logs.push(m), nextSequence: () => 0, isSending: () => true });
    const result = await engine.load('http://127.0.0.1:9/');
    if (!result.ok) throw new Error(result.error.message);
    return { engine, result: result.value, logs };
  }

  it('resolves each item through the step path (checked blocks); an item whose content fails is left off, logged', async () => {
    const { result, logs } = await load([news('a', blocks('Alpha')), news('b', { type: 'div', props: { onclick: 'x' }, children: [] })], { enabled: true, data: { whatsnew: true } });
    expect(result.launcher?.whatsnew).toEqual([{ guideId: 'a', stepId: 'a-1', name: 'News a', seen: false, content: blocks('Alpha') }]);
    expect(result.launcher?.whatsnewUnseen).toBe(2);
    expect(logs.some((l) => l.startsWith("what's-new item b/b-1 left off: "))).toBe(true);
  });

  it('no feed without data.whatsnew', async () => {
    const { result } = await load([news('a', blocks('Alpha'))], { enabled: true, data: {} });
    expect(result.launcher?.whatsnew).toBeUndefined();
  });

  it('a seen (reason launcher) item is drawn as seen and the count drops', async () => {
    const { engine } = await load([news('a', blocks('Alpha')), news('b', blocks('Beta'))], { enabled: true, data: { whatsnew: true } });
    await engine.stepAction({ guideId: 'b', stepId: 'b-1', action: 'seen', reason: 'launcher', url: 'http://127.0.0.1:9/' });
    const view = await engine.launcherView();
    expect(view?.whatsnewUnseen).toBe(1);
    expect(view?.whatsnew?.map((i) => [i.guideId, i.seen])).toEqual([['a', false], ['b', true]]);
  });

  it('a badge with attributes.badge.content carries the checked blocks; blocks that fail the check leave the mark, logged', async () => {
    const badgeGuide = (id: string, content: unknown): Guide => ({
      id,
      name: id,
      launchMethod: 'badge',
      attributes: { badge: { elementPathRule: '#t', content } },
      steps: [{ id: `${id}-1`, guideId: id, type: 'lightbox', domJson: blocks('x') } as GuideStep],
    });
    const good = { type: 'span', props: {}, children: [], content: 'New' };
    const { result, logs } = await load([badgeGuide('g', good), badgeGuide('h', { type: 'span', props: { onclick: 'x' }, children: [] })], undefined);
    expect(result.badges.find((b) => b.guideId === 'g')?.content).toEqual(good);
    expect(result.badges.find((b) => b.guideId === 'h')).toBeDefined();
    expect(result.badges.find((b) => b.guideId === 'h')?.content).toBeUndefined();
    expect(logs.some((l) => l.startsWith('guide h badge content: '))).toBe(true);
  });
});
