/**
 * Starts the real reference server once for the e2e run: a free loopback port, an in-memory database,
 * the demo guides plus the test guides, and the built agent from dist/. Tests read its URL from
 * WAYMARK_URL, and the guide folder from WAYMARK_GUIDES_DIR (a test may write a launcher config there).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../server/createServer';
import { trustFirstHop } from '../../server/trustProxyOf';
import { E2E_ADMIN_TOKEN } from './adminToken';
import { freePort } from '../server/startPostgres';
import { TEST_PASSWORD_COST } from '../server/testServer';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const guidesDir = mkdtempSync(join(tmpdir(), 'waymark-e2e-guides-'));
  // The demo's settings tour would put its lightbox over the settings form the capture tests fill in; its
  // behaviour (continuation, Back, snooze) is covered by the test guides' own tour (guides.spec.ts).
  // The demo's launcher (launcher.json) would put a badge on every test page; the launcher's e2e
  // (launcher.spec.ts) writes a launcher.{apiKey}.json of its own per test into this folder instead.
  // The demo's resource center (rc-*.json) would put its badge on the test pages at /, /reports and /settings;
  // resourceCenter.spec.ts writes resource centers of its own, on paths of their own. The demo's exports badge
  // would sit on the Reports page's export button; badges have test guides of their own (e2e-badge*.json).
  cpSync('server/demo/guides', guidesDir, {
    recursive: true,
    filter: (src) => !src.endsWith('settings-tour.json') && !src.endsWith('launcher.json') && !src.endsWith('exports-badge.json') && !/[\\/]rc-[^\\/]*\.json$/.test(src),
  });
  cpSync('test/e2e/guides', guidesDir, { recursive: true });
  // 'legal-hold-visitor' is answered 451 on guide.json (guides §7): the e2e of a collector that stops tracking.
  // A port chosen first, so that the console origins a designer link may name can include this server under
  // another host name (issue #31: http://localhost:{port} is another origin than http://127.0.0.1:{port}).
  const port = await freePort();
  const server = await startServer({
    port,
    consoleOrigins: [`http://localhost:${port}`],
    // As a deployment behind a TLS proxy runs it (consoleBehindProxy.spec.ts); requests that come straight from the
    // browser carry no X-Forwarded-* and are read as before.
    trustProxy: trustFirstHop,
    dataDir: 'memory://',
    guidesDir,
    blockedVisitors: ['legal-hold-visitor'],
    guidelessApiKeys: ['e2e-no-guides'],
    featuresFile: 'test/e2e/features.json',
    adminToken: E2E_ADMIN_TOKEN,
    // The users the specs make sign up and in at the test servers' cheap hash cost (test/server/testServer.ts).
    passwordCost: TEST_PASSWORD_COST,
  });
  process.env.WAYMARK_URL = server.url;
  process.env.WAYMARK_GUIDES_DIR = guidesDir;
  return async () => {
    await server.close();
    rmSync(guidesDir, { recursive: true, force: true });
  };
}
