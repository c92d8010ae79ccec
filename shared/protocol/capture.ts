/**
 * The shim-worker contract, capture side (analytics §4, §7, §8): captured events and the shim's verdicts on
 * watched clicks cross in batches; the worker answers flushes and reports delivery back.
 *
 * The two messages of every click (a batch in, a delivery mark out) are one-way: they travel as plain
 * messages on the same endpoint as the Comlink calls (so in order with them), not as Comlink calls, whose
 * answer would be one more task on the host's main thread for nothing (issue #16).
 */
import type { CapturedEvent } from '../events/events';
import type { AgentError, Outcome } from '../errors';
import type { DELIVERED_MESSAGE, PUSH_MESSAGE } from '../constants';

/**
 * The shim's verdict on a click (analytics §4): 'deadClick' (no effect within 500 ms) and/or 'errorClick' (a
 * page error right after it, with its message), or none (`[]`: it had an effect, or was not watched). Sent
 * with the batch that carries the click when it can be (the batch waits for it), else with a later one; the
 * worker stops waiting for it 1 s after the click.
 */
export interface ClickVerdictMessage {
  sequence: number;
  frustrationTypes: string[];
  errorMessage?: string;
}

/** Page to worker, one-way: a batch of captured events and verdicts (CaptureApi.push without an answer). */
export interface PushMessage {
  type: typeof PUSH_MESSAGE;
  events: CapturedEvent[];
  verdicts?: ClickVerdictMessage[];
}

/**
 * Worker to page, one-way: every event of this page with a sequence up to `upTo` is done with (delivered, or
 * dropped with a log), so the shim stops holding it for its page-hide beacon. Sent in order: a high-water mark.
 */
export interface DeliveredMessage {
  type: typeof DELIVERED_MESSAGE;
  upTo: number;
}

/** An internal error for the error log (analytics §8). */
export interface ErrorReportMessage {
  message: string;
  stack?: string;
  critical?: boolean;
}


/** Counts of what one flush did, for `flushNow()` and tests. */
export interface FlushReport {
  sent: number;
  pending: number;
  errors: AgentError[];
}

/** The capture part of the worker's API. */
export interface CaptureApi {
  /** A batch of captured events, in capture order, with dead/error click verdicts reached since the last. */
  push(events: CapturedEvent[], verdicts?: ClickVerdictMessage[]): void;
  /** analytics §1 lock/unlock: while false, no event of any kind is written. */
  setSending(sending: boolean): void;
  /** Sends an internal error to the error log, de-duplicated by hash (analytics §7, §8). */
  reportError(error: ErrorReportMessage): void;
  /** Sends every queued event now. */
  flush(): Promise<Outcome<FlushReport>>;
}
