/**
 * Where captured events wait for the shim's verdict on a click (spec: analytics §4 dead clicks and error
 * clicks). The shim watches each click for 500 ms and says something only when the click was dead or
 * followed by an error; a click waits here for that verdict, and every event after it waits behind it, so
 * the queue keeps capture order. Released on the verdict, VERDICT_WAIT_MS (5 s) after the click, or on flush (`force`).
 *
 * Each event keeps the envelope context (identity, session, utm) it was pushed under, so an identify or a
 * new session that arrives while it waits does not reattribute it.
 */
import type { EnvelopeContext } from '../shared/events/enrichEvent';
import type { CapturedEvent } from '../shared/events/events';
import type { ClickVerdictMessage } from '../shared/protocol';
import type { Clock } from './ports';

/**
 * How long a click waits for the shim's verdict before it goes without one: a net for a verdict that never comes
 * (the agent stopped mid-watch), not the verdict's schedule, which the click's own time does not bound. The verdict
 * is told 500 ms after the last click of the click's gesture (the shim's click buffer joins clicks on one element
 * less than 100 ms apart, however many: shim/watchClickEffects.ts), on the agent's next tick (250 ms), and its batch
 * may then wait up to 750 ms more behind a newer click's verdict (shim/createBridge.ts). Issue #32: at 1 s, the
 * first clicks of a rage burst of real clicks 30-90 ms apart, in Firefox ESR and WebKitGTK, went before their
 * verdict and were stored without `deadClick`. The page keeps every event until the worker has delivered it, so a
 * longer wait costs a later send, never an event.
 */
export const VERDICT_WAIT_MS = 5000;

/** The shim's verdict on one click. */
export interface ClickVerdict {
  types: string[];
  errorMessage?: string;
}

/** An event let out of the hold, with what it was pushed under and its click's verdict, if any. */
export interface ReleasedEvent {
  event: CapturedEvent;
  under: EnvelopeContext;
  verdict?: ClickVerdict;
}

export interface VerdictHold {
  /** Events as pushed, in capture order, under `context`, and the verdicts reached since the last push. */
  push(events: CapturedEvent[], verdicts: ClickVerdictMessage[] | undefined, context: EnvelopeContext): void;
  /** Lets out what may go; with `force` (a flush) everything, verdict or not. */
  release(force: boolean): void;
}

export function createVerdictHold(clock: Clock, onRelease: (events: ReleasedEvent[]) => void): VerdictHold {
  let waiting: Array<{ event: CapturedEvent; under: EnvelopeContext }> = [];
  const verdicts = new Map<number, ClickVerdict>();
  let timer: unknown = null;

  function release(force: boolean): void {
    const now = clock.now();
    let n = 0;
    for (; n < waiting.length; n++) {
      const { event } = waiting[n]!;
      if (event.type !== 'click' || force || verdicts.has(event.sequence)) continue;
      if (now - event.time < VERDICT_WAIT_MS) break;
    }
    if (n) {
      const out = waiting.slice(0, n) as ReleasedEvent[];
      for (const r of out) {
        r.verdict = verdicts.get(r.event.sequence);
        verdicts.delete(r.event.sequence);
      }
      waiting = waiting.slice(n);
      onRelease(out);
    }
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    const head = waiting[0];
    if (head) timer = clock.setTimeout(() => release(false), Math.max(0, head.event.time + VERDICT_WAIT_MS - now));
  }

  return {
    push(events, judged, context) {
      // The shim pushes what it captured before it tells of a new identity or session (createBridge), so
      // the context now is the one these events were captured under.
      const under = { ...context };
      for (const event of events) waiting.push({ event, under });
      for (const v of judged ?? []) {
        // A verdict for a click already released (a very busy main thread) comes too late to mark it.
        if (waiting.some(({ event }) => event.type === 'click' && event.sequence === v.sequence)) {
          verdicts.set(v.sequence, { types: v.frustrationTypes, errorMessage: v.errorMessage });
        }
      }
      release(false);
    },
    release,
  };
}
