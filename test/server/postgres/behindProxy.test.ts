/**
 * Run by vitest.postgres.config.ts only (issue #31 "Behind a proxy"): the console behind a real TLS-terminating
 * reverse proxy. Debian's nginx with a throwaway self-signed certificate (startTlsProxy) sends each request to the
 * next of two collector processes on one PostgreSQL database, both started with WAYMARK_TRUST_PROXY=1. Over https a
 * login's cookie is Secure, a console write from the proxy's https origin passes the own-origin check whichever
 * collector takes it, the session holds on both, and the login limiter counts each client rather than the proxy.
 * A third collector, not told to trust a proxy, ignores X-Forwarded-* sent to it directly.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCollectorProcess, type CollectorProcess } from '../startCollectorProcess';
import { startTlsProxy, UPSTREAM_HEADER, type TlsProxy } from '../startTlsProxy';
import { freshPostgresDatabase, TEST_ADMIN_TOKEN } from '../testServer';

/** Three collectors, PostgreSQL and nginx on two cores: more than a server test's usual 30 s. */
const START_TIMEOUT = 90_000;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request on a connection of its own (so `localAddress` picks the client's address); https without checking the certificate. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; json?: unknown; localAddress?: string } = {},
): Promise<Answer> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers = { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers };
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      { method: options.method ?? 'GET', headers, localAddress: options.localAddress, agent: false, rejectUnauthorized: false, timeout: 10_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within 10 s: ${options.method ?? 'GET'} ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The session cookie of a login's answer (`name=value`), and its attributes. */
function sessionCookieOf(answer: Answer): { cookie: string; attributes: string[] } {
  const line = [answer.headers['set-cookie'] ?? []].flat().find((text) => text.startsWith('waymark_session='));
  if (!line) throw new Error(`no session cookie in ${answer.status} ${answer.body}`);
  const [cookie, ...attributes] = line.split(';').map((part) => part.trim());
  return { cookie: cookie!, attributes };
}

const guide = (name: string, id = 'proxied') => ({
  id,
  name,
  launchMethod: 'auto',
  steps: [{ id: `${id}-1`, type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: name }] } }],
});

let proxy: TlsProxy | undefined;
const trusting: CollectorProcess[] = [];
let plain: CollectorProcess | undefined;

beforeAll(async () => {
  const databaseUrl = await freshPostgresDatabase();
  if (!databaseUrl) throw new Error('behindProxy.test.ts runs on PostgreSQL only (vitest.postgres.config.ts)');
  const env = { DATABASE_URL: databaseUrl, WAYMARK_ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  // At once: collectors take turns at the new database's migrations (severalCollectors.test.ts).
  const started = await Promise.allSettled([
    startCollectorProcess({ ...env, WAYMARK_TRUST_PROXY: '1' }),
    startCollectorProcess({ ...env, WAYMARK_TRUST_PROXY: '1' }),
    startCollectorProcess({ ...env, WAYMARK_TRUST_PROXY: '' }),
  ]);
  const [first, second, third] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  trusting.push(...[first, second].filter((collector) => collector !== undefined));
  plain = third;
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  proxy = await startTlsProxy(trusting.map((collector) => new URL(collector.url).host));
}, START_TIMEOUT);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all([...trusting, ...(plain ? [plain] : [])].map((collector) => stopCollector(collector)));
}, START_TIMEOUT);

/** SIGTERM (the collector drains its summaries for up to 10 s), then SIGKILL after 15 s. */
async function stopCollector({ process: child }: CollectorProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

describe('issue #31 behind a TLS-terminating proxy (nginx, two collectors trusting it)', () => {
  let cookie = '';

  it('answers over https through the proxy, from both collectors in turn', async () => {
    const upstreams = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const answer = await send(`${proxy!.origin}/api/health`);
      expect(answer.status, answer.body).toBe(200);
      upstreams.add(String(answer.headers[UPSTREAM_HEADER]));
    }
    expect([...upstreams].sort()).toEqual(trusting.map((collector) => new URL(collector.url).host).sort());
  });

  it('a login over https answers a Secure session cookie', async () => {
    const answer = await send(`${proxy!.origin}/api/login`, { method: 'POST', json: { token: TEST_ADMIN_TOKEN } });
    expect(answer.status, answer.body).toBe(204);
    const session = sessionCookieOf(answer);
    // Kept before the check below, so the tests after it each still say what they prove.
    cookie = session.cookie;
    expect(session.attributes).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Strict']));
  });

  it('the session holds on each collector, reached directly', async () => {
    for (const collector of trusting) {
      const answer = await send(`${collector.url}/api/session`, { headers: { cookie } });
      expect(answer.status, `${collector.url}: ${answer.body}`).toBe(200);
    }
  });

  it('a console write from the proxy\'s https origin is saved and read back, whichever collector takes each request', async () => {
    const consoleHeaders = { cookie, 'x-waymark-console': '1', origin: proxy!.origin };
    const url = `${proxy!.origin}/api/apps/behind-proxy/guides/proxied`;
    const upstreams = new Set<string>();
    const created = await send(url, { method: 'PUT', headers: consoleHeaders, json: guide('Through nginx') });
    expect(created.status, created.body).toBe(201);
    upstreams.add(String(created.headers[UPSTREAM_HEADER]));
    const renamed = await send(url, { method: 'PUT', headers: consoleHeaders, json: guide('Renamed through nginx') });
    expect(renamed.status, renamed.body).toBe(200);
    upstreams.add(String(renamed.headers[UPSTREAM_HEADER]));
    for (let i = 0; i < 2; i++) {
      const read = await send(url, { headers: { cookie } });
      expect(read.status, read.body).toBe(200);
      expect(JSON.parse(read.body)).toMatchObject({ guide: { id: 'proxied', name: 'Renamed through nginx' } });
      upstreams.add(String(read.headers[UPSTREAM_HEADER]));
    }
    expect(upstreams.size).toBe(2);
  });

  it('a console write is refused from the http origin the old check built, and from another site', async () => {
    for (const origin of [proxy!.origin.replace('https:', 'http:'), 'https://elsewhere.example']) {
      const answer = await send(`${proxy!.origin}/api/apps/behind-proxy/guides/proxied`, {
        method: 'PUT',
        headers: { cookie, 'x-waymark-console': '1', origin },
        json: guide('Refused'),
      });
      expect(answer.status, `${origin}: ${answer.body}`).toBe(403);
    }
  });

  it('the login limiter counts each client, not the proxy, and not an X-Forwarded-For the client wrote', async () => {
    // 127.0.0.2 and 127.0.0.3 are two clients of the proxy; each failure claims another address before it.
    for (let i = 0; i < 10; i++) {
      const answer = await send(`${proxy!.origin}/api/login`, {
        method: 'POST',
        json: { token: 'wrong-token' },
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        localAddress: '127.0.0.2',
      });
      expect(answer.status, answer.body).toBe(401);
    }
    // The 11th within the minute waits, whichever collector it reaches, even with the right token.
    const limited = await send(`${proxy!.origin}/api/login`, { method: 'POST', json: { token: TEST_ADMIN_TOKEN }, localAddress: '127.0.0.2' });
    expect(limited.status, limited.body).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await send(`${proxy!.origin}/api/login`, { method: 'POST', json: { token: TEST_ADMIN_TOKEN }, localAddress: '127.0.0.3' });
    expect(other.status, other.body).toBe(204);
  });
});

describe('issue #31 a collector not trusting proxies (WAYMARK_TRUST_PROXY unset)', () => {
  const forged = (i: number) => ({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'localhost:443', 'x-forwarded-for': `203.0.113.${i + 1}` });

  it('ignores X-Forwarded-Proto and -Host sent to it directly: no Secure cookie, its own http origin', async () => {
    const login = await send(`${plain!.url}/api/login`, { method: 'POST', json: { token: TEST_ADMIN_TOKEN }, headers: forged(0), localAddress: '127.0.0.9' });
    expect(login.status, login.body).toBe(204);
    const session = sessionCookieOf(login);
    expect(session.attributes).not.toContain('Secure');
    const write = (origin: string) =>
      send(`${plain!.url}/api/apps/behind-proxy/guides/direct`, {
        method: 'PUT',
        headers: { ...forged(0), cookie: session.cookie, 'x-waymark-console': '1', origin },
        json: guide('Written directly', 'direct'),
      });
    expect((await write('https://localhost:443')).status).toBe(403);
    const own = await write(plain!.url);
    expect(own.status, own.body).toBe(201);
  });

  it('counts failed logins by the socket\'s address, whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < 10; i++) {
      const answer = await send(`${plain!.url}/api/login`, { method: 'POST', json: { token: 'wrong-token' }, headers: forged(i), localAddress: '127.0.0.10' });
      expect(answer.status, answer.body).toBe(401);
    }
    const limited = await send(`${plain!.url}/api/login`, { method: 'POST', json: { token: TEST_ADMIN_TOKEN }, headers: forged(10), localAddress: '127.0.0.10' });
    expect(limited.status, limited.body).toBe(429);
  });
});
