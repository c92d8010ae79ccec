// The whole test run behind `npm test`: typecheck, unit tests (vitest, Node), the server tests again on a real
// PostgreSQL the run starts itself, then end-to-end tests (Playwright, Debian's Chromium, real reference
// server), then the cross-engine journeys (test/engines: Debian's Firefox ESR and WebKitGTK, issue #32). Prints
// one closing line 'N passed, N failed' summed over the runners, and exits non-zero when any step failed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, resolve } from 'node:path';

// Stale reports from an earlier run must never be counted as this run's.
rmSync('test-results/unit.json', { force: true });
rmSync('test-results/unit-postgres.json', { force: true });
rmSync('test-results/e2e.json', { force: true });
rmSync('test-results/engines.json', { force: true });
mkdirSync('test-results/screens', { recursive: true });
/**
 * `npm run typecheck`'s tsc projects (package.json, one `tsc -p` each joined by &&), one per core at a time rather
 * than one after another: each is a single-threaded process. Answers the first failing exit status, 0 when all pass.
 */
async function typecheck() {
  const commands = JSON.parse(readFileSync('package.json', 'utf8')).scripts.typecheck.split(' && ').map((command) => command.trim().split(/\s+/));
  const statuses = [];
  const next = async () => {
    for (let command = commands.shift(); command; command = commands.shift()) {
      const [cmd, ...args] = command;
      // As npm run would find it: node_modules/.bin first on the PATH.
      const env = { ...process.env, PATH: `${resolve('node_modules/.bin')}${delimiter}${process.env.PATH}` };
      statuses.push(await new Promise((done) => spawn(cmd, args, { stdio: 'inherit', env }).on('error', () => done(1)).on('exit', (code) => done(code ?? 1))));
    }
  };
  await Promise.all(Array.from({ length: availableParallelism() }, next));
  return statuses.find((status) => status !== 0) ?? 0;
}

const steps = [
  ['typecheck', typecheck],
  ['unit', 'npx', ['vitest', 'run']],
  ['server on PostgreSQL', 'npx', ['vitest', 'run', '-c', 'vitest.postgres.config.ts']],
  ['e2e', 'npx', ['playwright', 'test']],
  ['engines (Firefox ESR, WebKitGTK)', 'npx', ['vitest', 'run', '-c', 'test/engines/vitest.config.ts']],
];

let failedSteps = 0;
for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name}: ${typeof cmd === 'function' ? 'tsc -p each project of npm run typecheck, one per core' : `${cmd} ${args.join(' ')}`}`);
  const started = Date.now();
  const status = typeof cmd === 'function' ? await cmd() : spawnSync(cmd, args, { stdio: 'inherit', env: process.env }).status;
  const ok = status === 0;
  if (!ok) failedSteps++;
  console.log(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

let passed = 0;
let failed = 0;
for (const report of ['test-results/unit.json', 'test-results/unit-postgres.json', 'test-results/engines.json']) {
  if (!existsSync(report)) continue;
  const unit = JSON.parse(readFileSync(report, 'utf8'));
  passed += unit.numPassedTests ?? 0;
  failed += unit.numFailedTests ?? 0;
}
if (existsSync('test-results/e2e.json')) {
  const e2e = JSON.parse(readFileSync('test-results/e2e.json', 'utf8'));
  passed += e2e.stats?.expected ?? 0;
  failed += (e2e.stats?.unexpected ?? 0) + (e2e.stats?.flaky ?? 0);
}
if (failedSteps && failed === 0) failed = failedSteps;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failedSteps ? 1 : 0);
