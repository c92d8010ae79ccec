/**
 * guides §9 "Step-state and throttling storage time-to-live: 10,000 ms" (shared/guides/recentStepStates): a step
 * change of this browser is kept 10 s and laid over the next page's guide.json answer where the answer is older.
 */
import { describe, expect, it } from 'vitest';
import { STEP_STATE_TTL_MS } from '../../shared/constants';
import type { Guide, GuideLoadResponse } from '../../shared/guides/guides';
import { keepRecentStepStates, withRecentStepStates, type RecentStepState } from '../../shared/guides/recentStepStates';
import type { GuideState } from '../../shared/protocol';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { createFakeClock, createFakeTransport, engineInit, PROBED } from './fakes';

const content = { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'p', content: 'Hi' }] };
const step = (id: string, extra: Partial<Guide['steps'][number]> = {}) => ({ id, guideId: 'g', type: 'lightbox' as const, domJson: content, ...extra });
const twoSteps = (): Guide => ({ id: 'g', launchMethod: 'auto', steps: [step('g-1'), step('g-2')] });
const answer = (guides: Guide[], lastGuideStepSeen = {}): GuideLoadResponse => ({ guides, lastGuideStepSeen });
const change = (at: number, extra: Partial<RecentStepState> = {}): RecentStepState => ({ guideId: 'g', stepId: 'g-1', at, seenState: 'dismissed', seenReason: 'auto', ...extra });

describe('guides §9 step-state time-to-live 10,000 ms', () => {
  it('is the spec\'s 10,000 ms', () => {
    expect(STEP_STATE_TTL_MS).toBe(10_000);
  });

  it('keeps the changes younger than 10 s, one per step, the latest last', () => {
    const now = 1_000_000;
    const kept = keepRecentStepStates([change(now - 10_000), change(now - 9_999, { stepId: 'g-2' }), change(now - 5, { seenState: 'active' })], now, change(now));
    expect(kept).toEqual([change(now - 9_999, { stepId: 'g-2' }), change(now)]);
    // Whatever the browser's storage held that is not a list is no list of changes.
    expect(keepRecentStepStates('junk' as never, now)).toEqual([]);
  });

  it('lays a change over an older answer, and leaves a newer answer (and a change past 10 s) alone', () => {
    const now = 2_000_000;
    const over = withRecentStepStates(answer([twoSteps()]), [change(now - 3_000)], now);
    expect(over.guides[0]!.steps[0]).toMatchObject({ seenState: 'dismissed', lastSeenAt: now - 3_000, seenReason: 'auto' });
    expect(over.lastGuideStepSeen).toEqual({ guideId: 'g', guideStepId: 'g-1', time: now - 3_000, state: 'dismissed', seenReason: 'auto' });

    const newer = answer([{ ...twoSteps(), steps: [step('g-1', { seenState: 'active', lastSeenAt: now - 1_000 }), step('g-2')] }], { guideId: 'g', guideStepId: 'g-1', time: now - 1_000, state: 'active' });
    expect(withRecentStepStates(newer, [change(now - 3_000)], now)).toEqual(newer);

    const old = answer([twoSteps()]);
    expect(withRecentStepStates(old, [change(now - STEP_STATE_TTL_MS)], now)).toBe(old);
  });
});

describe('guides §9 the next page after a step change', () => {
  function page(state: GuideState | undefined, body: GuideLoadResponse, clock = createFakeClock()) {
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(body) });
    const saved: GuideState[] = [];
    const config = engineInit(PROBED);
    const engine = createGuideEngine({
      config: { ...config, guides: { ...config.guides, state: state ? { ...config.guides?.state, ...state } : config.guides?.state } },
      ports: { clock, transport }, log: () => undefined, nextSequence: () => 0, isSending: () => true, saveState: (s) => void saved.push(s),
    });
    return { engine, saved, clock, transport };
  }
  const candidates = (r: Awaited<ReturnType<ReturnType<typeof createGuideEngine>['load']>>) => (r.ok ? r.value.candidates.map((c) => c.stepId) : r.error.message);

  it('a guide dismissed a moment ago stays away though the collector does not know it yet; 10 s later the collector is right again', async () => {
    const first = page(undefined, answer([twoSteps()]));
    expect(candidates(await first.engine.load('http://h/'))).toEqual(['g-1']);
    await first.engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'seen', url: 'http://h/' });
    await first.engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'dismiss', url: 'http://h/' });
    const kept = first.saved.at(-1)!;
    expect(kept.recentSteps).toEqual([expect.objectContaining({ guideId: 'g', stepId: 'g-1', seenState: 'dismissed', at: first.clock.now() })]);

    // The next page: the collector's answer still has the guide unseen.
    const next = page(kept, answer([twoSteps()]), first.clock);
    expect(candidates(await next.engine.load('http://h/'))).toEqual([]);

    // A page 10 s after the dismissal believes the collector (a reset from the console shows the guide again).
    await first.clock.advance(STEP_STATE_TTL_MS);
    const later = page(kept, answer([twoSteps()]), first.clock);
    expect(candidates(await later.engine.load('http://h/'))).toEqual(['g-1']);
  });

  it('a multi-step guide advanced a moment ago continues at the next step, not again at the first', async () => {
    const first = page(undefined, answer([twoSteps()]));
    await first.engine.load('http://h/');
    await first.engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'seen', url: 'http://h/' });
    await first.engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'advance', url: 'http://h/' });
    const kept = first.saved.at(-1)!;
    // The collector only has the first step seen.
    const stale = answer([{ ...twoSteps(), steps: [step('g-1', { seenState: 'active', lastSeenAt: first.clock.now() - 50 }), step('g-2')] }], { guideId: 'g', guideStepId: 'g-1', time: first.clock.now() - 50, state: 'active' });
    const next = page(kept, stale, first.clock);
    expect(candidates(await next.engine.load('http://h/'))).toEqual(['g-2']);
    // Without the kept change the same answer resumes the first step.
    const without = page(undefined, stale, first.clock);
    expect(candidates(await without.engine.load('http://h/'))).toEqual(['g-1']);
  });

  it("an author's preview leaves the visitor's step facts as they were: the guide dismissed in the preview shows after it", async () => {
    const { engine, saved, transport } = page(undefined, answer([twoSteps()]));
    expect(candidates(await engine.load('http://h/'))).toEqual(['g-1']);
    const savedBefore = saved.length;
    await engine.previewGuide({ guide: twoSteps() });
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'seen', url: 'http://h/' });
    await engine.stepAction({ guideId: 'g', stepId: 'g-1', action: 'dismiss', url: 'http://h/' });
    expect(saved).toHaveLength(savedBefore);
    await engine.previewGuide(null);
    transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(answer([twoSteps()])) });
    expect(candidates(await engine.load('http://h/'))).toEqual(['g-1']);
  });
});
