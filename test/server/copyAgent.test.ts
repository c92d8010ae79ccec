/**
 * Issue #7: `waymark-copy-agent <folder>` copies the built agent (needs `npm run build` first, as the test
 * command does) into a host's public folder, and refuses bad arguments with a clear message.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const run = (...args: string[]) => spawnSync(process.execPath, ['scripts/copy-agent.mjs', ...args], { encoding: 'utf8' });
const temps: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-copy-'));
  temps.push(dir);
  return dir;
};
afterEach(() => temps.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('issue #7 waymark-copy-agent', () => {
  it('copies the worker and the other agent files into a new folder', () => {
    const target = join(temp(), 'public', 'waymark');
    const result = run(target);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/files copied to .*public\/waymark; initialize with workerUrl/);
    expect(readFileSync(join(target, 'waymark.worker.js'), 'utf8')).toBe(readFileSync('dist/agent/waymark.worker.js', 'utf8'));
    expect(existsSync(join(target, 'waymark.js'))).toBe(true);
    expect(existsSync(join(target, 'waymark.inpage.js'))).toBe(true);
  });

  it('refuses no folder, two folders, and a file in the way', () => {
    expect(run().stderr).toBe('waymark-copy-agent: usage: waymark-copy-agent <folder>  (for example public/waymark)\n');
    expect(run('a', 'b').status).toBe(1);
    const file = join(temp(), 'taken');
    writeFileSync(file, 'x');
    const taken = run(file);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toBe(`waymark-copy-agent: ${file} exists and is not a folder\n`);
  });
});
