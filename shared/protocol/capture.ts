/**
 * The shim-worker contract, capture side (analytics §4, §7, §8): captured events and the shim's verdicts on
 * watched clicks cross in batches; the worker answers flushes and reports delivery back (ShimCallbacks).
 */
import type { CapturedEvent } from '../events/events';
import type { AgentError, Outcome } from '../errors';

/**
 * The shim's verdict on a click it watched (analytics §4): 'deadClick' (no effect within 500 ms) and/or
 * 'errorClick' (a page error right after it, with its message). Only sent when there is something to
 * say, with the next batch; the worker stops waiting for it 1 s after the click.
 */
export interface ClickVerdictMessage {
  sequence: number;
  frustrationTypes: string[];
  errorMessage?: string;
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
