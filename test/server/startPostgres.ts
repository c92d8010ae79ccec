/**
 * A real PostgreSQL server for the tests, started by the tests themselves: Debian's binaries
 * (/usr/lib/postgresql/{version}/bin, installed by scripts/setup.sh), `initdb` in a temporary folder, a free port
 * on 127.0.0.1, trust authentication for the one user `waymark`, durability off (a test database lives seconds).
 * PostgreSQL refuses to run as root: as root, the server runs as Debian's `postgres` user through `runuser`.
 * A bench may keep the folder (`dir`): made once, started again on its data by a later run.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running test server. */
export interface TestPostgres {
  /** `postgres://waymark@127.0.0.1:{port}/{database}`. */
  url(database: string): string;
  /** Stops the server and removes its folder (a kept folder stays). */
  stop(): void;
  /** Stops the server, keeping its data (a restart under load). */
  pause(): void;
  /** Starts a paused server again on the same port. */
  resume(): void;
}

/** The newest installed PostgreSQL's bin folder, or undefined. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Where the server keeps its data. */
export interface StartPostgresOptions {
  /**
   * A folder kept across runs (bench/analytics.ts's seeded database): made if missing, its data initialized only
   * when it holds none, and left in place by `stop`. @default a new temporary folder, removed by `stop`
   */
  dir?: string;
  /** More server settings, each `name=value` (bench/analytics.ts's memory, as a deployment sets it). */
  settings?: readonly string[];
}

/** Starts a server; throws with what to install when Debian's PostgreSQL is missing. */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<TestPostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed: run `bash scripts/setup.sh` (it installs Debian's postgresql)");
  const kept = options.dir !== undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'waymark-pg-'));
  if (kept) mkdirSync(dir, { recursive: true });
  const data = join(dir, 'data');
  const remove = () => kept || rmSync(dir, { recursive: true, force: true });
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    return execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  };
  chmodSync(dir, 0o700);
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const more = (options.settings ?? []).map((setting) => ` -c ${setting}`).join('');
  const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off${more}`;
  const start = () => run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', settings, '-w', '-t', '60', 'start']);
  try {
    if (!existsSync(join(data, 'PG_VERSION'))) run('initdb', ['-D', data, '-U', 'waymark', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    start();
  } catch (err) {
    remove();
    const e = err as { stderr?: string; message: string };
    throw new Error(`PostgreSQL did not start: ${e.stderr || e.message}`);
  }
  return {
    url: (database) => `postgres://waymark@127.0.0.1:${port}/${database}`,
    pause: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    resume: start,
    stop() {
      try {
        // A kept folder is shut down cleanly (no recovery at its next start).
        run('pg_ctl', ['-D', data, '-m', kept ? 'fast' : 'immediate', '-w', 'stop']);
      } finally {
        remove();
      }
    },
  };
}
