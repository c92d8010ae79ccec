/**
 * How the fuzz properties run (issue #31): in `npm test` (vitest run) with a fixed seed and a modest number of
 * cases each, so the suite stays short and a failure replays as is; under `npm run fuzz` (FUZZ_SECONDS set)
 * each property runs for that many seconds from a random seed, and prints its cases and cases/s.
 *
 * Environment (either of the first two makes a long run: random seed, figures printed):
 * - FUZZ_SECONDS: run each property this long (its case count then unbounded).
 * - FUZZ_RUNS: cases per property instead of each property's default (with FUZZ_SECONDS: at most that many).
 * - FUZZ_SEED, FUZZ_PATH: replay a failure as its report gives them (the seed alone reruns the whole sequence).
 *
 * A failure throws fast-check's report: seed, path, the counterexample shrunk, the error it raised. The server
 * properties of one file share one server, so a failure that needs what earlier cases stored may not replay alone
 * with its path: the seed replays the whole sequence.
 */
import fc from 'fast-check';
import { expect } from 'vitest';

/** The seed of `npm test`: fixed, so the suite is the same every run. */
export const DEFAULT_SEED = 31_031;

/** How one property runs now. */
export interface FuzzPlan {
  seed: number;
  /** Cases to run; with `seconds`, at most this many. */
  numRuns: number;
  /** Time limit in seconds (npm run fuzz); undefined in npm test. */
  seconds?: number;
  path?: string;
}

const positive = (name: string): number | undefined => {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got ${text})`);
  return n;
};

/** Whether this is a long run (`npm run fuzz`, or FUZZ_RUNS given). */
export const LONG_RUN = positive('FUZZ_SECONDS') !== undefined || positive('FUZZ_RUNS') !== undefined;

/** The plan of a property whose default in npm test is `defaultRuns` cases. */
export function fuzzPlan(defaultRuns: number): FuzzPlan {
  const seconds = positive('FUZZ_SECONDS');
  const runs = positive('FUZZ_RUNS');
  const seedText = process.env.FUZZ_SEED;
  const seed = seedText ? Number(seedText) : LONG_RUN ? Math.floor(Math.random() * 0x7fffffff) : DEFAULT_SEED;
  return {
    seed,
    numRuns: Math.floor(runs ?? (seconds !== undefined ? Number.MAX_SAFE_INTEGER : defaultRuns)),
    ...(seconds !== undefined ? { seconds } : {}),
    ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
  };
}

/**
 * The vitest timeout of a property: its time limit plus room to shrink a failure (shrinking replays cases, and a
 * server case can take a while on a loaded machine), else `defaultMs`.
 */
export function fuzzTimeout(defaultMs: number): number {
  const seconds = positive('FUZZ_SECONDS');
  if (seconds !== undefined) return seconds * 1000 + 300_000;
  // FUZZ_RUNS alone: as long as the cases take, within an hour.
  return LONG_RUN ? 3_600_000 : defaultMs;
}

/** Runs `property` by its plan; throws fast-check's report on failure, prints the figures on a long run. */
export async function runFuzz<Ts>(name: string, property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>, defaultRuns: number): Promise<void> {
  const plan = fuzzPlan(defaultRuns);
  const started = performance.now();
  const details = await fc.check(property as fc.IAsyncProperty<Ts>, {
    seed: plan.seed,
    numRuns: plan.numRuns,
    ...(plan.path !== undefined ? { path: plan.path } : {}),
    ...(plan.seconds !== undefined ? { interruptAfterTimeLimit: plan.seconds * 1000, markInterruptAsFailure: false } : {}),
  });
  const seconds = (performance.now() - started) / 1000;
  if (details.failed) {
    const report = fc.defaultReportMessage(details) ?? 'failed';
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `fuzz ${name}: after ${details.numRuns} cases: ${report}\nGot error: ${error}\n` +
        `Replay: FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath ?? ''} npx vitest run ${replayTarget()}`,
    );
  }
  if (LONG_RUN) {
    console.log(`fuzz ${name}: ${details.numRuns} cases in ${seconds.toFixed(1)} s, ${(details.numRuns / seconds).toFixed(1)} cases/s (seed ${details.seed})`);
  }
}

/** The file and test name of the property running now, as `vitest run` arguments (`-t` takes a regular expression). */
function replayTarget(): string {
  const { testPath, currentTestName } = expect.getState();
  const file = testPath ? testPath.slice(testPath.indexOf('test/fuzz/')) : 'test/fuzz';
  const title = (currentTestName ?? '').split(' > ').pop() ?? '';
  return title ? `${file} -t '${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "'\\''")}'` : file;
}
