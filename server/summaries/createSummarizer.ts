/**
 * Keeps the console's summaries current off the beacons' path (issue #19). Every collector process runs one: about
 * every second, and at once when a burst has queued a statement's worth of events, it drains the summary queue
 * (drainSummaryQueue.ts), a bounded statement at a time, until nothing is left that another collector is not
 * already taking. The console's reads call `flush` first, so what they show holds every batch answered 2xx before
 * the read; shutdown calls `stop`, which drains for a bounded time and leaves the rest queued for the next drain
 * of any collector. Same code on PGlite (one process) and PostgreSQL.
 */
import type { Database } from '../storage/Database';
import { drainSummaryQueue, lastQueued } from './drainSummaryQueue';

/** When and how much the summarizer drains. */
export interface SummarizerOptions {
  /** Time from the end of one periodic run to the start of the next. @default 1000 */
  intervalMs?: number;
  /**
   * Events queued by this process since its last run that start a run before the next tick: a burst is summarized
   * as soon as it fills a statement. @default 10_000
   */
  burstEvents?: number;
  /** Most queued batches one drain statement takes. @default 1000 */
  maxBatches?: number;
  /**
   * Most events one drain statement summarizes: bounds its time (~13 µs an event on PostgreSQL), how long it holds
   * the summary rows, and its sorts (10,000 stay within PostgreSQL's default work_mem). @default 10_000
   */
  maxEvents?: number;
  /** Where a failing run is reported (once until runs succeed again). @default console.warn */
  warn?: (message: string) => void;
  /**
   * Runs after a drain that emptied the queue, before a flush resolves: the analytics match the dictionary entries
   * the drains added against their rules (issue #35, analytics/matchNewEntries), so a read after a flush counts
   * a new element's clicks. @default nothing
   */
  afterDrain?: () => Promise<unknown>;
}

/** The summarizer of one collector process. */
export interface Summarizer {
  /** Told by the ingest statement how many events it queued; a burst starts a run before the next tick. */
  queued(events: number): void;
  /**
   * Resolves once every batch queued before the call, by any collector, is in the summaries: waits for this
   * process's run in progress, and for batches another collector is summarizing, then drains the rest.
   */
  flush(): Promise<void>;
  /** Stops the periodic runs and drains for at most `ms`; answers whether the queue was left empty. */
  stop(ms?: number): Promise<boolean>;
}

/** Starts the periodic runs on `db` (its schema migrated). */
export function createSummarizer(db: Database, options: SummarizerOptions = {}): Summarizer {
  const { intervalMs = 1000, burstEvents = 10_000, maxBatches = 1000, maxEvents = 10_000, warn = console.warn, afterDrain } = options;
  /** This process's drains, one at a time (a flush waits for a periodic run in progress, and the reverse). */
  let turn: Promise<unknown> = Promise.resolve();
  /** A flush asked for and not yet begun: callers meanwhile share it (it will cover their batches too). */
  let nextFlush: Promise<void> | undefined;
  let running = false;
  let failing = false;
  let stopped = false;
  let sinceRun = 0;
  let timer: NodeJS.Timeout | undefined;

  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = turn.then(fn);
    turn = run.catch(() => undefined);
    return run;
  };

  /** Drains until the queue is empty (up to `upTo` when waiting), or `deadline`; answers whether it emptied. */
  async function drain(wait: boolean, deadline = Infinity): Promise<boolean> {
    sinceRun = 0;
    const upTo = wait ? await lastQueued(db) : undefined;
    for (;;) {
      const { more } = await drainSummaryQueue(db, { maxBatches, maxEvents, wait, upTo });
      if (!more) {
        await afterDrain?.();
        return true;
      }
      if (Date.now() >= deadline) return false;
      // Let requests that arrived meanwhile queue their statements before the next drain statement: PGlite runs
      // in this thread, one statement at a time, and its queue is worked through promise callbacks, which would
      // otherwise run the whole backlog before any beacon is even read.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(run, intervalMs);
    timer.unref?.();
  }

  function run(): void {
    if (stopped || running) return;
    running = true;
    clearTimeout(timer);
    inTurn(() => drain(false))
      .then(
        () => {
          if (failing) warn('summaries: caught up');
          failing = false;
        },
        (err: unknown) => {
          // The batches stay queued (their statement rolled back): the next run takes them.
          if (!failing) warn(`summaries: a run failed, retrying every ${intervalMs} ms: ${(err as Error).message}`);
          failing = true;
        },
      )
      .finally(() => {
        running = false;
        schedule();
      });
  }

  schedule();
  return {
    queued(events) {
      sinceRun += events;
      if (sinceRun >= burstEvents) run();
    },

    flush() {
      nextFlush ??= inTurn(async () => {
        nextFlush = undefined;
        await drain(true);
      });
      return nextFlush;
    },

    async stop(ms = 10_000) {
      stopped = true;
      clearTimeout(timer);
      const deadline = Date.now() + ms;
      const drained = inTurn(() => drain(false, deadline)).catch((err: unknown) => {
        warn(`summaries: the drain at shutdown failed; what is queued waits for the next collector: ${(err as Error).message}`);
        return false;
      });
      // A statement still running at the deadline (a database that hangs) is not waited for beyond a grace second.
      let giveUp: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (giveUp = setTimeout(() => resolve(false), ms + 1000)));
      try {
        return await Promise.race([drained, late]);
      } finally {
        clearTimeout(giveUp);
      }
    },
  };
}
