/**
 * Shared set-up of the server tests: a server on an in-memory database with a temporary guide folder, and
 * jzb made with Node's own zlib, as another agent would make it (the agent's own fflate jzb reaches the server's
 * node:zlib decoder in the e2e tests, an independent pair: STYLE §6).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { PasswordCost } from '../../server/auth/users/passwords';
import { createServer, type ServerOptions } from '../../server/createServer';
import { pgliteTemplate } from './pgliteTemplate';

/**
 * Time allowed to start or stop a server: PGlite boots a WebAssembly PostgreSQL (about a second, several
 * under a loaded parallel run), more than vitest's default hook and test timeouts.
 */
export const SERVER_TIMEOUT = 30_000;

/** The admin token of every test server: /api/* reads send it (issue #14). */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';
/** The header that authenticates an /api/* request. */
export const ADMIN_HEADERS = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/**
 * The scrypt cost of the test servers' new password hashes (ServerOptions.passwordCost): 1 MiB and a few ms, where
 * production's 2^15 takes 0.1-0.2 s of a core, which the suites' hundreds of sign-ups and sign-ins add up to minutes
 * of. The production cost is checked by passwords.test.ts (hashPassword itself) and postgres/sharedUsers.test.ts (a
 * server started with PASSWORD_COST).
 */
export const TEST_PASSWORD_COST: PasswordCost = { N: 2 ** 10, r: 8, p: 1 };

/** A server under test and its temporary folders. */
export interface TestServer {
  app: FastifyInstance;
  guidesDir: string;
  /** The temporary folder: `features.json` here is the server's features file (absent: none). */
  root: string;
  /** The server's PostgreSQL database when the run is on PostgreSQL (vitest.postgres.config.ts). */
  databaseUrl?: string;
  /** Closes the server and removes the temporary folders. */
  close(): Promise<void>;
}

let databases = 0;

/**
 * A new empty database on the run's PostgreSQL (vitest.postgres.config.ts sets WAYMARK_TEST_POSTGRES), or
 * undefined when the tests run on PGlite.
 */
export async function freshPostgresDatabase(): Promise<string | undefined> {
  const admin = process.env.WAYMARK_TEST_POSTGRES;
  if (!admin) return undefined;
  const name = `test_${process.pid}_${++databases}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  return admin.replace(/\/postgres$/, `/${name}`);
}

/**
 * Starts a server (not listening) on `memory://` (or on a new database of the run's PostgreSQL), with `guides`
 * written as files into a fresh folder, its PGlite started from the run's empty template (pgliteTemplate.ts);
 * password hashes at TEST_PASSWORD_COST unless `options` say otherwise.
 */
export async function startTestServer(
  guides: Record<string, unknown> = {},
  options: ServerOptions = {},
): Promise<TestServer> {
  const root = mkdtempSync(join(tmpdir(), 'waymark-server-test-'));
  const guidesDir = join(root, 'guides');
  writeGuides(guidesDir, guides);
  const databaseUrl = await freshPostgresDatabase();
  const app = await createServer({
    dataDir: 'memory://',
    ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }),
    guidesDir,
    agentDir: join(root, 'no-agent'),
    featuresFile: join(root, 'features.json'),
    demoDir: join(root, 'no-demo'),
    adminToken: TEST_ADMIN_TOKEN,
    passwordCost: TEST_PASSWORD_COST,
    ...options,
  });
  return {
    app,
    guidesDir,
    root,
    ...(databaseUrl ? { databaseUrl } : { memoryTemplate: await pgliteTemplate() }),
    async close() {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Writes each entry as `<name>` (a string is written as is, anything else as JSON). */
export function writeGuides(dir: string, files: Record<string, unknown>): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

/** Base64url without padding. */
export function base64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/** jzb of a payload: base64url of zlib (RFC 1950) of its JSON, made with node:zlib. */
export function nodeJzb(payload: unknown): string {
  return base64Url(deflateSync(Buffer.from(JSON.stringify(payload), 'utf8')));
}

let sequence = 0;

/** An analytics event in the wire shape (WireEvent), with a fresh sequence unless given. */
export function wireEvent(fields: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    type: 'click',
    browser_time: 1_790_000_000_000 + sequence,
    visitor_id: 'visitor-1',
    account_id: 'acme',
    url: 'http://127.0.0.1/reports',
    props: { target: { tag: 'BUTTON', id: 'create-report' } },
    sequence,
    bytes: 200,
    sessionId: 'abcdefghijklmnop',
    tabId: 'tab-1',
    frameId: 'frame-1',
    parentTabId: '',
    utm: { channel: 'Direct' },
    ...fields,
  };
}

/** A guide event in the wire shape (WireGuideEvent). */
export function guideEvent(
  type: string,
  props: Record<string, unknown>,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  sequence += 1;
  return {
    type,
    browser_time: 1_790_000_000_000 + sequence,
    visitor_id: 'visitor-1',
    account_id: 'acme',
    url: 'http://127.0.0.1/',
    props,
    sequence,
    sessionId: 'abcdefghijklmnop',
    tabId: 'tab-1',
    ...fields,
  };
}

/** Reads back `/api/events` with the given query. */
export async function readEvents(app: FastifyInstance, query: Record<string, string>): Promise<any[]> {
  const response = await app.inject({ method: 'GET', url: '/api/events', query, headers: ADMIN_HEADERS });
  if (response.statusCode !== 200) throw new Error(`/api/events answered ${response.statusCode}: ${response.body}`);
  return response.json().events;
}
