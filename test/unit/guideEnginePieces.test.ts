import { describe, expect, it } from 'vitest';
import type { Guide } from '../../shared/guides/guides';
import { MESSAGES } from '../../shared/messages';
import { createGuideBook } from '../../worker/guides/createGuideBook';
import { createGuideHealth } from '../../worker/guides/createGuideHealth';
import { pollValue, transitionOf } from '../../worker/guides/createStepActions';
import { createFakeClock } from './fakes';

const guide = (id: string): Guide => ({ id, launchMethod: 'auto', steps: [{ id: `${id}-1`, guideId: id, type: 'lightbox' }, { id: `${id}-2`, guideId: id, type: 'tooltip' }] });

describe('guides §8 guide health in the engine', () => {
  it('drops a guide once its errors reach 30 a minute (5 within 10 s), once, and tells the collector renderFail once', () => {
    const clock = createFakeClock();
    const logs: string[] = [];
    const recorded: Array<[string, unknown, string]> = [];
    const health = createGuideHealth({ clock, log: (_l, m) => logs.push(m), record: (t, p, u) => recorded.push([t, p, u]), pageUrl: () => 'https://app.example/a' });
    const g = guide('g');
    for (let i = 0; i < 4; i++) health.countError(g);
    expect(health.failure('g')).toBeUndefined();
    health.countError(g);
    expect(health.failure('g')).toBe(MESSAGES.errorRateExceeded);
    health.countError(g);
    expect(logs.filter((m) => m.startsWith(MESSAGES.errorRateExceeded))).toEqual([`${MESSAGES.errorRateExceeded} g`]);
    expect(recorded).toEqual([['guideNotSeen', { guide_id: 'g', guide_step_id: 'g-1', reason: 'renderFail' }, 'https://app.example/a']]);
  });

  it('markFailed fails the guide with its message and counts an error; notSeen is told once per guide', () => {
    const recorded: string[] = [];
    const health = createGuideHealth({ clock: createFakeClock(), log: () => undefined, record: (t, p) => recorded.push(`${t}:${(p as { reason: string }).reason}`), pageUrl: () => '' });
    const outcome = health.markFailed(guide('h'), 'Unable to verify content at https://cdn.example/h.json');
    expect(outcome).toEqual({ ok: false, error: { code: expect.any(String), message: 'Unable to verify content at https://cdn.example/h.json' } });
    expect(health.failure('h')).toBe('Unable to verify content at https://cdn.example/h.json');
    health.notSeen(guide('h'), 'h-1', 'pageRule', '');
    health.notSeen(guide('h'), 'h-1', 'pageRule', '');
    expect(recorded).toEqual(['guideNotSeen:pageRule']);
  });
});

describe('guides §4 the engine\'s guide book and step actions', () => {
  it('replaces guides instead of mutating them, and marks one step or all notSeen', () => {
    const book = createGuideBook();
    const original = guide('g');
    book.set([original, guide('k')]);
    book.markNotSeen('g', 'g-2');
    expect(book.byId('g')!.steps.map((s) => s.seenState)).toEqual([undefined, 'notSeen']);
    expect(original.steps[1]!.seenState).toBeUndefined();
    book.markNotSeen('k');
    expect(book.byId('k')!.steps.map((s) => s.seenState)).toEqual(['notSeen', 'notSeen']);
    expect(book.find('g', 'g-1')!.step.id).toBe('g-1');
    expect(book.find('g', 'nope')).toBeNull();
  });

  it('guides §5: numeric and yes/no polls record integers, free-form polls the text, unparseable numbers nothing', () => {
    expect(pollValue('9', 'NPSRating', undefined)).toBe(9);
    expect(pollValue('1', 'YesNo', undefined)).toBe(1);
    expect(pollValue('7 stars', 'FreeForm', true)).toBe(7);
    expect(pollValue('great', 'FreeForm', undefined)).toBe('great');
    expect(pollValue('lots', 'NumberScale', undefined)).toBeNull();
  });

  it('turns visitor actions into state-machine transitions', () => {
    const base = { guideId: 'g', stepId: 's1', url: 'https://app.example/' };
    expect(transitionOf({ ...base, action: 'seen' })).toEqual({ type: 'show', stepId: 's1', reason: 'auto' });
    expect(transitionOf({ ...base, action: 'advance', targetStepId: 's3' })).toEqual({ type: 'advance', stepId: 's1', destinationStepId: 's3' });
    expect(transitionOf({ ...base, action: 'snooze', snoozeMs: 60_000 })).toEqual({ type: 'snooze', stepId: 's1', durationMs: 60_000 });
    expect(() => transitionOf({ ...base, action: 'poll' })).toThrow('no transition for poll');
  });
});
