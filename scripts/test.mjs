// The whole test run behind `npm test`: typecheck, unit tests (vitest, Node), the server tests again on a real
// PostgreSQL the run starts itself, then end-to-end tests (Playwright, Debian's Chromium, real reference
// server), then the cross-engine journeys (test/engines: Debian's Firefox ESR and WebKitGTK, issue #32). Prints
// one closing line 'N passed, N failed' summed over the runners, and exits non-zero when any step failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

// Stale reports from an earlier run must never be counted as this run's.
rmSync('test-results/unit.json', { force: true });
rmSync('test-results/unit-postgres.json', { force: true });
rmSync('test-results/e2e.json', { force: true });
rmSync('test-results/engines.json', { force: true });
mkdirSync('test-results/screens', { recursive: true });
const steps = [
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['unit', 'npx', ['vitest', 'run']],
  ['server on PostgreSQL', 'npx', ['vitest', 'run', '-c', 'vitest.postgres.config.ts']],
  ['e2e', 'npx', ['playwright', 'test']],
  ['engines (Firefox ESR, WebKitGTK)', 'npx', ['vitest', 'run', '-c', 'test/engines/vitest.config.ts']],
];

let failedSteps = 0;
for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  const ok = result.status === 0;
  if (!ok) failedSteps++;
  console.log(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${result.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
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
