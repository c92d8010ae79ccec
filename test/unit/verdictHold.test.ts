import { describe, expect, it } from 'vitest';
import type { EnvelopeContext } from '../../shared/events/enrichEvent';
import type { CapturedEvent } from '../../shared/events/events';
import { CLICK_BUFFER_WINDOW_MS, DEAD_CLICK_MS } from '../../shared/constants';
import { TICK_MS } from '../../shim/createTicker';
import { createVerdictHold, VERDICT_WAIT_MS, type ReleasedEvent } from '../../worker/createVerdictHold';
import { createFakeClock } from './fakes';

const T0 = 1_700_000_000_000;
const event = (type: CapturedEvent['type'], sequence: number, time = T0): CapturedEvent => ({ type, sequence, time, url: 'https://app.example/', props: {} });
const context = (visitorId: string) => ({ identity: { visitorId, accountId: '' }, session: { sessionId: 's', tabId: 't', frameId: 'f', parentTabId: '' }, utm: {} }) as EnvelopeContext;

function setup() {
  const clock = createFakeClock(T0);
  const released: ReleasedEvent[][] = [];
  const hold = createVerdictHold(clock, (events) => released.push(events));
  const sequences = () => released.map((batch) => batch.map((r) => r.event.sequence));
  return { clock, hold, released, sequences };
}

describe('analytics §4 dead and error clicks: events wait for a click\'s verdict', () => {
  it('lets out what comes before a click at once, holds the click and what follows until its verdict', () => {
    const { hold, released, sequences } = setup();
    hold.push([event('load', 1), event('click', 2), event('focus', 3)], undefined, context('v1'));
    expect(sequences()).toEqual([[1]]);
    hold.push([], [{ sequence: 2, frustrationTypes: ['deadClick'] }], context('v1'));
    expect(sequences()).toEqual([[1], [2, 3]]);
    expect(released[1]![0]!.verdict).toEqual({ types: ['deadClick'], errorMessage: undefined });
    expect(released[1]![1]!.verdict).toBeUndefined();
  });

  it(`releases a click without a verdict ${VERDICT_WAIT_MS} ms after it, and everything on a forced release`, async () => {
    const { clock, hold, sequences } = setup();
    hold.push([event('click', 1, T0), event('click', 2, T0 + 300)], undefined, context('v1'));
    await clock.advance(VERDICT_WAIT_MS - 1);
    expect(sequences()).toEqual([]);
    await clock.advance(1);
    expect(sequences()).toEqual([[1]]);
    hold.release(true);
    expect(sequences()).toEqual([[1], [2]]);
  });

  it("waits for the verdict of a rage burst's first click, told 500 ms after the burst's last click and a tick (issue #32)", async () => {
    const { clock, hold, released } = setup();
    // Eight clicks 90 ms apart on one button: one gesture of the shim's click buffer, judged as one.
    const gap = CLICK_BUFFER_WINDOW_MS - 10;
    const clicks = Array.from({ length: 8 }, (_, i) => event('click', i + 1, T0 + i * gap));
    hold.push(clicks, undefined, context('v1'));
    // The bridge sent the batch at its overdue tick; the gesture's verdict follows after the last click's watch.
    const toldAt = T0 + 7 * gap + DEAD_CLICK_MS + TICK_MS;
    await clock.advance(toldAt - T0);
    expect(released).toEqual([]);
    hold.push([], clicks.map((c) => ({ sequence: c.sequence, frustrationTypes: ['deadClick'] })), context('v1'));
    expect(released.flat().map((r) => r.verdict?.types)).toEqual(clicks.map(() => ['deadClick']));
  });

  it('keeps the context each event was pushed under, and drops a verdict that comes after its click left', () => {
    const { hold, released } = setup();
    hold.push([event('click', 1)], undefined, context('before'));
    hold.push([event('track', 2)], undefined, context('after-identify'));
    hold.release(true);
    expect(released[0]!.map((r) => r.under.identity.visitorId)).toEqual(['before', 'after-identify']);
    hold.push([], [{ sequence: 1, frustrationTypes: ['errorClick'], errorMessage: 'boom' }], context('after-identify'));
    hold.push([event('click', 3)], undefined, context('after-identify'));
    hold.release(true);
    expect(released[1]!.map((r) => [r.event.sequence, r.verdict])).toEqual([[3, undefined]]);
  });
});
