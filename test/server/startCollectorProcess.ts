/**
 * `npm run serve` as a process of its own (`node --import tsx server/main.ts`, not the tsx CLI, whose child a
 * SIGKILL would miss) on a free loopback port, answered once /api/health says so. For the fault tests and the
 * ingest bench (issue #19).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './startPostgres';

export interface CollectorProcess {
  url: string;
  process: ChildProcess;
}

const root = join(import.meta.dirname, '../..');

/** Starts a collector with `env` added to this process's; throws with its stderr when it exits or stays silent 30 s. */
export async function startCollectorProcess(env: Record<string, string>): Promise<CollectorProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), WAYMARK_SEED_APP: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the collector exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, process: child };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the collector did not start within 30 s: ${stderr}`);
}
