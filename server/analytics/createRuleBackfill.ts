/**
 * Runs the background backfills of new and changed rules (backfillRule.ts) in one collector process (issue #35
 * "Fast at real volumes"): at once when a rule is saved here (`kick`), and about every second for rules saved by
 * another collector or left by one that stopped. One backfill pass at a time per process; between batches the
 * event loop is given back (PGlite runs in this thread). A read of one rule may `settle` it first: the rule's own
 * backfill is run in the read for a bounded time, so a small app's new rule answers its full counts at once, and
 * a big one's answers its progress.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../storage/Database';
import { backfillStep, claimBackfill } from './backfillRule';
import type { RuleKind } from './matchRuleKeys';

/** When and how much a collector backfills. */
export interface RuleBackfillOptions {
  /** Time from the end of one periodic pass to the start of the next. @default 1000 */
  intervalMs?: number;
  /** Dictionary entries matched per batch (one statement). @default 2000 */
  batch?: number;
  /** Where a failing pass is reported (once until passes succeed again). @default console.warn */
  warn?: (message: string) => void;
}

/** The backfills of one collector process. */
export interface RuleBackfill {
  /** A rule was saved: starts a pass now rather than at the next tick. */
  kick(): void;
  /** Runs the backfill of one rule, if due and not another collector's, for at most `ms`. */
  settle(kind: RuleKind, apiKey: string, id: string, ms: number): Promise<void>;
  /** Stops the periodic passes, waiting for the batch in progress. */
  stop(): Promise<void>;
}

/** Runs claimed backfills to the end (or `deadline`); answers when none is due. `only` limits it to one rule. */
export async function runBackfills(
  db: Database,
  owner: string,
  batch: number,
  deadline = Infinity,
  only?: { kind: RuleKind; apiKey: string; id: string },
): Promise<void> {
  for (const kind of only ? [only.kind] : (['feature', 'page'] as const)) {
    for (;;) {
      const job = await claimBackfill(db, kind, owner, Date.now(), only);
      if (!job) break;
      let step: 'more' | 'done' | 'lost' = 'more';
      while (step === 'more') {
        if (Date.now() >= deadline) return;
        step = await backfillStep(db, job, Date.now(), batch);
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (only) return;
    }
  }
}

/** Starts the periodic passes on `db` (its schema migrated). */
export function createRuleBackfill(db: Database, options: RuleBackfillOptions = {}): RuleBackfill {
  const { intervalMs = 1000, batch = 2000, warn = console.warn } = options;
  const owner = randomUUID();
  let turn: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let failing = false;

  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = turn.then(fn);
    turn = run.catch(() => undefined);
    return run;
  };

  function schedule(): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(pass, intervalMs);
    timer.unref?.();
  }

  function pass(): void {
    if (stopped) return;
    clearTimeout(timer);
    inTurn(() => runBackfills(db, owner, batch))
      .then(
        () => {
          if (failing) warn('rule backfills: caught up');
          failing = false;
        },
        (err: unknown) => {
          // The job keeps its cursor; its lease lapses and the next pass (of any collector) goes on.
          if (!failing) warn(`rule backfills: a pass failed, retrying: ${(err as Error).message}`);
          failing = true;
        },
      )
      .finally(schedule);
  }

  schedule();
  return {
    kick() {
      setImmediate(pass);
    },
    async settle(kind, apiKey, id, ms) {
      // Bounded also while a periodic pass of this process holds the turn.
      let timeout: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timeout = setTimeout(resolve, ms)));
      const run = inTurn(() => runBackfills(db, owner, batch, Date.now() + ms, { kind, apiKey, id }));
      run.catch(() => undefined); // a failure after the bound is the next pass's to report
      try {
        await Promise.race([run, late]);
      } finally {
        clearTimeout(timeout);
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await turn;
    },
  };
}
