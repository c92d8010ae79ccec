/**
 * Issue #33 "Single sign-on", on PGlite (vitest.config.ts) and on the real PostgreSQL (vitest.postgres.config.ts
 * runs test/server/**): the console's server against a real OpenID provider (oidc-provider, started here on
 * 127.0.0.1), driven over real HTTP by a browser by hand (ssoBrowser.ts): the start's redirect, the provider's sign-in
 * form and consent, the provider's redirect to the callback, the session cookie, /api/me. Nothing of the flow mocked.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitSsoUser, verifiedEmailOf } from '../../server/auth/sso/admitSsoUser';
import { checkSsoOptions } from '../../server/auth/sso/ssoOptions';
import { ssoReturnPath } from '../../server/auth/sso/ssoReturnPath';
import { SSO_REFUSALS } from '../../shared/auth/ssoRefusals';
import { createOidcProvider, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } from './startOidcProvider';
import { freePort } from './startPostgres';
import { SsoBrowser } from './ssoBrowser';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

let provider: Awaited<ReturnType<typeof createOidcProvider>>;
let server: TestServer;
let origin: string;

/** The console's clock runs ahead by this much (the expired sign-in). */
let clockAhead = 0;

beforeAll(async () => {
  provider = await createOidcProvider({
    ada: { email: 'Ada@Example.com', email_verified: true, name: 'Ada Lovelace' },
    ada2: { email: 'ada@example.com', email_verified: true, name: 'Not Ada' },
    bob: { email: 'bob@corp.example', email_verified: true, name: 'Bob\u0007 Builder' },
    eve: { email: 'eve@elsewhere.example', email_verified: true },
    unverified: { email: 'una@corp.example', email_verified: false },
    silent: { email: 'sam@corp.example' },
    nomail: { name: 'No Mail' },
    gone: { email: 'gone@corp.example', email_verified: true },
    late: { email: 'late@corp.example', email_verified: true },
  });
  server = await startTestServer({}, {
    sso: { issuer: provider.issuer, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, domains: ['corp.example'], now: () => Date.now() + clockAhead },
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  provider.register(`${origin}/api/sso/callback`);
  await provider.listen();
}, SERVER_TIMEOUT * 2);
afterAll(async () => {
  await provider?.close();
  await server?.close();
}, SERVER_TIMEOUT);

const start = (returnPath = '/console/guides') => `${origin}/api/sso/start?return=${encodeURIComponent(returnPath)}`;
/** Signs `login` in at the provider; answers the browser and the callback URL the provider sent it to. */
async function toCallback(login: string, returnPath?: string): Promise<{ browser: SsoBrowser; callback: string }> {
  const browser = new SsoBrowser();
  const callback = await browser.toCallback(start(returnPath), login, `${origin}/api/sso/callback`);
  expect(callback.startsWith(`${origin}/api/sso/callback?`), callback).toBe(true);
  return { browser, callback };
}
/** The whole sign-in: answers the callback's response. */
async function signIn(login: string, returnPath?: string) {
  const { browser, callback } = await toCallback(login, returnPath);
  return { browser, callback, response: await browser.request(callback) };
}
const refusalOf = (response: Response) => {
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location')!, origin).searchParams.get('error');
};
const me = (browser: SsoBrowser) => fetch(`${origin}/api/me`, { headers: { cookie: `waymark_session=${browser.cookie(origin, 'waymark_session')}` } });
const audit = async (action: string) => (await server.app.inject({ method: 'GET', url: `/api/audit?action=${action}`, headers: ADMIN_HEADERS })).json().entries as any[];
const userByEmail = async (email: string) =>
  ((await server.app.inject({ method: 'GET', url: '/api/users', headers: ADMIN_HEADERS })).json().users as any[]).find((u) => u.email.toLowerCase() === email.toLowerCase());

// Each sign-in is some ten requests to two servers: under a loaded run (PostgreSQL beside it)
// a test takes seconds, more than vitest's default 5.
describe('issue #33 single sign-on: who may enter', { timeout: SERVER_TIMEOUT }, () => {
  it('the login page is told SSO is on', async () => {
    expect(await (await fetch(`${origin}/api/login-options`)).json()).toEqual({ sso: true });
  });

  it('an invited user signs in (email in any case) with their role; the session answers /api/me; the invitation is spent', async () => {
    const invited = await server.app.inject({ method: 'POST', url: '/api/users', headers: ADMIN_HEADERS, payload: { email: 'ada@example.com', role: 'editor', name: 'Ada' } });
    expect(invited.statusCode).toBe(201);
    const link = invited.json().invitationUrl as string;

    const browser = new SsoBrowser();
    const first = await browser.request(start('/console/guides?app=x'));
    expect(first.status).toBe(302);
    const authorize = new URL(first.headers.get('location')!);
    expect(authorize.origin).toBe(provider.issuer);
    // PKCE S256, state and nonce on the way out; the verifier never.
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${origin}/api/sso/callback`);
    expect(first.headers.get('set-cookie')).toMatch(/^waymark_sso=[\w-]{43}; HttpOnly; SameSite=Lax; Path=\/api\/sso\/; Max-Age=600$/);

    const callback = await browser.toCallback(authorize.href, 'ada', `${origin}/api/sso/callback`);
    const landed = await browser.request(callback);
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe('/console/guides?app=x');
    expect(landed.headers.get('referrer-policy')).toBe('no-referrer');
    expect(landed.headers.getSetCookie().find((c) => c.startsWith('waymark_session='))).toMatch(/HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/);
    expect(browser.cookie(origin, 'waymark_sso')).toBeUndefined();

    const who = await me(browser);
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({ role: 'editor', via: 'console', user: { email: 'ada@example.com', name: 'Ada', status: 'active' } });
    expect((await userByEmail('ada@example.com')).lastSignInAt).toEqual(expect.any(Number));
    // The invitation was accepted by the sign-in: its link sets no password now.
    const token = link.slice(link.lastIndexOf('/') + 1);
    const late = await server.app.inject({ method: 'POST', url: `/api/invitations/${token}`, payload: { password: 'a password of mine' } });
    expect(late.statusCode).toBe(410);
    const [entry] = await audit('login.succeeded');
    expect(entry).toMatchObject({ target: 'ada@example.com', after: { via: 'sso' }, actor: { kind: 'user', email: 'ada@example.com' } });
  });

  it('a stranger of a listed domain is made a user with the default role (viewer), named as the provider says', async () => {
    const { browser, response } = await signIn('bob', '/console/');
    expect([response.status, response.headers.get('location')]).toEqual([303, '/console/']);
    expect(await (await me(browser)).json()).toMatchObject({ role: 'viewer', user: { email: 'bob@corp.example', name: 'Bob Builder', status: 'active' } });
    const [created] = await audit('user.created');
    expect(created).toMatchObject({ target: 'bob@corp.example', after: { role: 'viewer', via: 'sso' } });
    // Signing in again is the same user.
    const again = await signIn('bob');
    expect((await (await me(again.browser)).json()).user.id).toBe((await userByEmail('bob@corp.example')).id);
  });

  it('a stranger of another domain is refused, with no user made, and the refusal is in the audit trail', async () => {
    const { response } = await signIn('eve');
    expect(refusalOf(response)).toBe('sso_not_invited');
    expect(new URL(response.headers.get('location')!, origin).pathname).toBe('/console/login');
    expect(response.headers.getSetCookie().some((c) => c.startsWith('waymark_session='))).toBe(false);
    expect(await userByEmail('eve@elsewhere.example')).toBeUndefined();
    const [entry] = await audit('login.refused');
    expect(entry).toMatchObject({ target: 'eve@elsewhere.example', actor: { kind: 'anonymous' }, after: { via: 'sso', error: 'sso_not_invited' } });
  });

  it('an email the provider has not verified, or says nothing of, or no email, is refused', async () => {
    expect(refusalOf((await signIn('unverified')).response)).toBe('sso_unverified');
    expect(refusalOf((await signIn('silent')).response)).toBe('sso_unverified');
    expect(refusalOf((await signIn('nomail')).response)).toBe('sso_no_email');
    expect(await userByEmail('una@corp.example')).toBeUndefined();
  });

  it('a removed user of a listed domain stays out until invited again', async () => {
    await signIn('gone');
    const user = await userByEmail('gone@corp.example');
    expect((await server.app.inject({ method: 'DELETE', url: `/api/users/${user.id}`, headers: ADMIN_HEADERS })).statusCode).toBe(204);
    expect(refusalOf((await signIn('gone')).response)).toBe('sso_removed');
  });

  it('another provider account with a signed-in user\'s email is refused (the first account is bound)', async () => {
    const { response } = await signIn('ada2');
    expect(refusalOf(response)).toBe('sso_mismatch');
  });
});

describe('issue #33 single sign-on: the flow cannot be bent', { timeout: SERVER_TIMEOUT }, () => {
  it('a replayed answer is refused, even with the browser\'s cookie', async () => {
    const { browser, callback } = await toCallback('ada');
    const binding = browser.cookie(origin, 'waymark_sso')!;
    expect((await browser.request(callback)).status).toBe(303);
    browser.setCookie(origin, 'waymark_sso', binding, '/api/sso/');
    const replay = await browser.request(callback);
    expect(refusalOf(replay)).toBe('sso_state');
    expect(replay.headers.getSetCookie().some((c) => c.startsWith('waymark_session='))).toBe(false);
  });

  it('an answer opened in another browser (no binding cookie) signs no one in, and spends the state', async () => {
    const { browser, callback } = await toCallback('ada');
    const other = new SsoBrowser();
    expect(refusalOf(await other.request(callback))).toBe('sso_state');
    expect(refusalOf(await browser.request(callback))).toBe('sso_state');
  });

  it('a state made up, or none, is refused', async () => {
    const browser = new SsoBrowser();
    expect(refusalOf(await browser.request(`${origin}/api/sso/callback?code=x&state=${'a'.repeat(43)}`))).toBe('sso_state');
    expect(refusalOf(await browser.request(`${origin}/api/sso/callback?code=x`))).toBe('sso_state');
  });

  it('an answer after 10 minutes is refused', async () => {
    const { browser, callback } = await toCallback('late');
    clockAhead = 10 * 60_000 + 1;
    try {
      const response = await browser.request(callback);
      expect(refusalOf(response)).toBe('sso_expired');
      expect(new URL(response.headers.get('location')!, origin).searchParams.get('next')).toBe('/console/guides');
    } finally {
      clockAhead = 0;
    }
    expect(await userByEmail('late@corp.example')).toBeUndefined();
  });

  it('a return path off the console (another origin, protocol-relative, the login page) lands on /console/', async () => {
    for (const asked of ['https://evil.example', '//evil.example/console/', '/console/../..//evil.example']) {
      const { response } = await signIn('bob', asked);
      expect(response.headers.get('location'), asked).toBe('/console/');
    }
  });

  it('ssoReturnPath keeps console paths only', () => {
    expect(ssoReturnPath('/console/guides?app=a#top')).toBe('/console/guides?app=a#top');
    for (const bad of [undefined, 'https://evil.example', '//evil.example', '/\\evil.example', '/console/../..//evil.example', '/console/login?next=x', '/api/me', 'javascript:alert(1)', '/console/\nx']) {
      expect(ssoReturnPath(bad), String(bad)).toBe('/console/');
    }
  });

  it('admitSsoUser and verifiedEmailOf decide on plain inputs', () => {
    const rules = { domains: new Set(['corp.example']), defaultRole: 'viewer' as const };
    expect(verifiedEmailOf({ email: ' Ada@Corp.Example ', email_verified: true })).toEqual({ email: 'Ada@Corp.Example' });
    expect(verifiedEmailOf({ email: 'ada@corp.example', email_verified: 'true' })).toEqual({ refusal: 'sso_unverified' });
    expect(verifiedEmailOf({ email: '<script>@corp.example', email_verified: true })).toEqual({ refusal: 'sso_no_email' });
    expect(verifiedEmailOf({ email: `${'a'.repeat(250)}@corp.example`, email_verified: true })).toEqual({ refusal: 'sso_no_email' });
    expect(admitSsoUser('ada@corp.example', { user: { id: 'u1' }, removed: false }, rules)).toEqual({ kind: 'user', userId: 'u1' });
    expect(admitSsoUser('Ada@CORP.example', { removed: false }, rules)).toEqual({ kind: 'create', email: 'Ada@CORP.example', role: 'viewer' });
    expect(admitSsoUser('ada@eu.corp.example', { removed: false }, rules)).toEqual({ kind: 'refused', refusal: 'sso_not_invited' });
    expect(admitSsoUser('ada@corp.example.evil', { removed: false }, rules)).toEqual({ kind: 'refused', refusal: 'sso_not_invited' });
    expect(admitSsoUser('ada@corp.example', { removed: true }, rules)).toEqual({ kind: 'refused', refusal: 'sso_removed' });
  });

  it('a provider that answers with an error is a refusal, not a sign-in', async () => {
    const browser = new SsoBrowser();
    const first = await browser.request(start());
    const state = new URL(first.headers.get('location')!).searchParams.get('state')!;
    const response = await browser.request(`${origin}/api/sso/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`);
    expect(refusalOf(response)).toBe('sso_denied');
  });
});

// Each of these boots a server of its own (PGlite: seconds under a loaded run) and closes it.
describe('issue #33 single sign-on: set-up', () => {
  it('a provider that cannot be reached: the server starts, passwords work, and the SSO attempt says so', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const other = await startTestServer({}, { sso: { issuer: down, clientId: 'c', clientSecret: 's' } });
    try {
      const response = await other.app.inject({ method: 'GET', url: '/api/sso/start?return=/console/apps' });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/console/login?error=sso_unavailable&next=%2Fconsole%2Fapps');
      expect(SSO_REFUSALS.sso_unavailable).toMatch(/could not be reached/);
      const login = await other.app.inject({ method: 'POST', url: '/api/login', payload: { token: ADMIN_HEADERS.authorization.slice(7) } });
      expect(login.statusCode).toBe(204);
      const entries = (await other.app.inject({ method: 'GET', url: '/api/audit?action=login.refused', headers: ADMIN_HEADERS })).json().entries;
      expect(entries[0]).toMatchObject({ after: { via: 'sso', error: 'sso_unavailable' } });
    } finally {
      await other.close();
    }
  }, SERVER_TIMEOUT * 2);

  it('without SSO the login page is told so, and the routes refuse', async () => {
    const off = await startTestServer();
    try {
      expect((await off.app.inject({ method: 'GET', url: '/api/login-options' })).json()).toEqual({ sso: false });
      expect((await off.app.inject({ method: 'GET', url: '/api/sso/start' })).headers.location).toBe('/console/login?error=sso_off');
      expect((await off.app.inject({ method: 'GET', url: '/api/sso/callback?state=x' })).headers.location).toBe('/console/login?error=sso_off');
    } finally {
      await off.close();
    }
  }, SERVER_TIMEOUT * 2);

  it('settings that cannot work stop the start, naming the variable', async () => {
    const good = { issuer: 'https://login.example.com', clientId: 'c', clientSecret: 's' };
    expect(checkSsoOptions(good)).toMatchObject({ defaultRole: 'viewer', domains: new Set() });
    expect(() => checkSsoOptions({ ...good, defaultRole: 'admin' })).toThrow('WAYMARK_OIDC_DEFAULT_ROLE may not be admin');
    expect(() => checkSsoOptions({ ...good, defaultRole: 'owner' as 'viewer' })).toThrow('WAYMARK_OIDC_DEFAULT_ROLE must be viewer or editor');
    expect(() => checkSsoOptions({ ...good, clientSecret: '' })).toThrow('missing WAYMARK_OIDC_CLIENT_SECRET');
    expect(() => checkSsoOptions({ ...good, issuer: 'http://login.example.com' })).toThrow('WAYMARK_OIDC_ISSUER must be an https URL');
    expect(() => checkSsoOptions({ ...good, issuer: 'login.example.com' })).toThrow("WAYMARK_OIDC_ISSUER must be the provider's issuer URL");
    expect(() => checkSsoOptions({ ...good, domains: ['*.example.com'] })).toThrow('WAYMARK_OIDC_DOMAINS must list email domains');
    expect(checkSsoOptions({ ...good, domains: ['Corp.Example'], defaultRole: 'editor' })).toMatchObject({ domains: new Set(['corp.example']), defaultRole: 'editor' });
    await expect(startTestServer({}, { sso: { ...good, defaultRole: 'admin' } })).rejects.toThrow('may not be admin');
  }, SERVER_TIMEOUT * 2);
});
