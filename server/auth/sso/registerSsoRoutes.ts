/**
 * Single sign-on for the console (issue #33, docs/users-and-roles.md "Single sign-on"): OpenID Connect's
 * authorization code flow with PKCE (S256), state and nonce, through `openid-client` (createOidcClient.ts).
 * - `GET /api/login-options` (open): `{ sso }`, whether the login page offers "Sign in with SSO".
 * - `GET /api/sso/start?return=/console/...` (open): stores the sign-in under way in the database (createSsoStore.ts:
 *   any collector finishes it), binds it to this browser with a cookie, and redirects to the provider.
 * - `GET /api/sso/callback` (open): the provider's answer. Takes the sign-in once (10 minutes), checks the browser's
 *   cookie, lets openid-client exchange the code and check the ID token, asks admitSsoUser who may enter, and opens
 *   the console session a password login opens (sessionCookie.ts), then lands on the return path (ssoReturnPath.ts).
 * Each refusal lands on `/console/login?error=<code>` (shared/auth/ssoRefusals.ts: fixed codes, never the provider's
 * words) and is in the audit trail as `login.refused` with `via: 'sso'`; a sign-in is `login.succeeded` (and a user
 * let in by their domain `user.created`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import type { SsoRefusal } from '../../../shared/auth/ssoRefusals';
import type { AuditActor } from '../../audit/createAuditLog';
import { hashToken, type AuthStore } from '../createAuthStore';
import { readCookie } from '../requestCredentials';
import { accessOf } from '../routeAccess';
import { SESSION_COOKIE, SESSION_TTL_MS, sessionCookie } from '../sessionCookie';
import { tokenEquals } from '../tokenEquals';
import type { UserStore } from '../users/createUserStore';
import { admitSsoUser, verifiedEmailOf, type SsoClaims } from './admitSsoUser';
import { createOidcClient } from './createOidcClient';
import { SSO_STATE_TTL_MS, type SsoStore } from './createSsoStore';
import type { SsoConfig } from './ssoOptions';
import { SSO_DEFAULT_RETURN, ssoReturnPath } from './ssoReturnPath';

/** The cookie that binds a sign-in under way to the browser that started it. */
export const SSO_COOKIE = 'waymark_sso';
/** Sign-ins one address may start within SSO_STATE_TTL_MS (each stores a row until it ends or expires). */
export const SSO_MAX_STARTS = 30;
/** What a sign-in asks the provider for: who (sub), the email and whether it is verified, the name. */
const SCOPE = 'openid email profile';
/** `state` as openid-client makes it (43 base64url characters), with room for other lengths, bounded. */
const STATE = /^[\w-]{16,128}$/;
const CONTROL = /[\p{Cc}\p{Cs}\u2028\u2029]/gu;

export interface SsoRoutesOptions {
  /** Checked settings (ssoOptions.ts), or undefined when single sign-on is off (the routes then say so). */
  config: SsoConfig | undefined;
  sso: SsoStore;
  sessions: AuthStore;
  users: UserStore;
}

/** The Set-Cookie of the browser binding: HttpOnly, Lax (it must come back on the provider's top-level redirect). */
const bindingCookie = (request: FastifyRequest, value: string, maxAgeSeconds: number) =>
  `${SSO_COOKIE}=${value}; HttpOnly; SameSite=Lax; Path=/api/sso/; Max-Age=${maxAgeSeconds}${request.protocol === 'https' ? '; Secure' : ''}`;

/** A name the provider gave, as a user's name may be: trimmed, without control characters, at most 100 characters. */
const nameOf = (claims: Record<string, unknown>) => (typeof claims.name === 'string' ? [...claims.name.replace(CONTROL, '').trim()].slice(0, 100).join('') : '');

/** A provider's or client's words for the audit trail: bounded, one line. */
const detailOf = (value: unknown) => String(value).replace(CONTROL, ' ').slice(0, 200);

/** Whether an error is the network's or a timeout (the provider unreachable), not a refusal of the answer. */
const isUnreachable = (err: unknown) => err instanceof Error && (err.name === 'TypeError' || err.name === 'AbortError' || err.name === 'TimeoutError');

export function registerSsoRoutes(app: FastifyInstance, { config, sso, sessions, users }: SsoRoutesOptions): void {
  const oidc = config && createOidcClient(config);
  const now = () => (config?.now ?? Date.now)();

  /** Lands a refused sign-in on the login page with its code (and where it was going), and records it. */
  const refuse = async (request: FastifyRequest, reply: FastifyReply, refusal: SsoRefusal, { target = 'sso', returnPath = SSO_DEFAULT_RETURN, detail }: { target?: string; returnPath?: string; detail?: unknown } = {}) => {
    await app.audit(request, { action: 'login.refused', target, after: { via: 'sso', error: refusal, ...(detail !== undefined ? { detail: detailOf(detail) } : {}) } }, { kind: 'anonymous' });
    const query = new URLSearchParams({ error: refusal, ...(returnPath !== SSO_DEFAULT_RETURN ? { next: returnPath } : {}) });
    return reply.code(303).header('location', `/console/login?${query}`).send();
  };

  app.get('/api/login-options', accessOf('open'), async () => ({ sso: config !== undefined }));

  app.get('/api/sso/start', accessOf('open'), async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const returnPath = ssoReturnPath((request.query as Record<string, unknown>).return);
    if (!config || !oidc) return refuse(request, reply, 'sso_off', { returnPath });
    const at = now();
    void sso.purge(at).catch((err: unknown) => app.log.warn(`sso purge: ${(err as Error).message}`));
    if ((await sso.startedFrom(request.ip, at - SSO_STATE_TTL_MS)) >= SSO_MAX_STARTS) return refuse(request, reply, 'sso_busy', { returnPath });
    let configuration: client.Configuration;
    try {
      configuration = await oidc.configuration();
    } catch (err) {
      request.log.warn(`sso: the provider ${config.issuer.href} could not be discovered: ${(err as Error).message}`);
      return refuse(request, reply, 'sso_unavailable', { returnPath, detail: (err as Error).message });
    }
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const browser = randomBytes(32).toString('base64url');
    // The provider checks it against the URIs registered for the client: a forged Host header sends no code anywhere.
    const redirectUri = `${request.protocol}://${request.host}/api/sso/callback`;
    await sso.put(state, { browserHash: hashToken(browser), codeVerifier, nonce, redirectUri, returnPath }, request.ip, at);
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return reply.code(302).header('set-cookie', bindingCookie(request, browser, SSO_STATE_TTL_MS / 1000)).header('location', url.href).send();
  });

  app.get('/api/sso/callback', accessOf('open'), async (request, reply) => {
    // The code and state are in this URL: no Referer carries them on, no cache keeps the answer.
    // The binding cookie is spent whatever the outcome (Fastify appends the session's Set-Cookie beside it).
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('set-cookie', bindingCookie(request, '', 0));
    if (!config || !oidc) return refuse(request, reply, 'sso_off');
    const query = request.query as Record<string, unknown>;
    const state = typeof query.state === 'string' && STATE.test(query.state) ? query.state : undefined;
    // Taken once, whatever its fate: a replayed answer finds nothing.
    const pending = state ? await sso.take(state) : undefined;
    if (!state || !pending) return refuse(request, reply, 'sso_state');
    const { returnPath } = pending;
    if (pending.expiresAt <= now()) return refuse(request, reply, 'sso_expired', { returnPath });
    // Started in this browser: else a link carrying someone else's code would sign its visitor in as that someone.
    const browser = readCookie(request.headers.cookie, SSO_COOKIE);
    if (!browser || !tokenEquals(hashToken(browser), pending.browserHash)) return refuse(request, reply, 'sso_state', { returnPath });
    if (query.error !== undefined) return refuse(request, reply, 'sso_denied', { returnPath, detail: query.error });

    let configuration: client.Configuration;
    let claims: SsoClaims & Record<string, unknown>;
    let subject: string;
    try {
      configuration = await oidc.configuration();
    } catch (err) {
      request.log.warn(`sso: the provider ${config.issuer.href} could not be discovered: ${(err as Error).message}`);
      return refuse(request, reply, 'sso_unavailable', { returnPath, detail: (err as Error).message });
    }
    try {
      // Only the query of the answer is read, as the router parsed it; the URL is the redirect URI the start sent
      // (the token request repeats it).
      const answer = new URL(pending.redirectUri);
      for (const [key, value] of Object.entries(request.query as Record<string, string | string[]>)) {
        for (const one of [value].flat()) answer.searchParams.append(key, one);
      }
      const tokens = await client.authorizationCodeGrant(configuration, answer, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      subject = idClaims.sub;
      claims = idClaims;
      // Providers put the email in the ID token or only at userinfo (oidc-provider, with an access token issued).
      if (claims.email === undefined) claims = { ...(await client.fetchUserInfo(configuration, tokens.access_token, subject)), ...idClaims };
    } catch (err) {
      request.log.warn(`sso: the provider's answer was refused: ${(err as Error).message}`);
      return refuse(request, reply, isUnreachable(err) ? 'sso_unavailable' : 'sso_failed', { returnPath, detail: (err as Error).message });
    }

    const proven = verifiedEmailOf(claims);
    if ('refusal' in proven) return refuse(request, reply, proven.refusal, { returnPath, target: typeof claims.email === 'string' ? detailOf(claims.email) : 'sso' });
    const { email } = proven;
    const found = await users.byEmail(email);
    const admission = admitSsoUser(email, { ...(found ? { user: found.user } : {}), removed: found ? false : await sso.wasRemoved(email) }, config);
    if (admission.kind === 'refused') return refuse(request, reply, admission.refusal, { returnPath, target: email });

    let user = found?.user;
    if (admission.kind === 'create') {
      const made = await users.create({ email, name: nameOf(claims), role: admission.role, passwordHash: null }, now());
      // Two callbacks of the same person racing: the other made the user.
      user = made === 'taken' ? (await users.byEmail(email))?.user : made;
      if (made !== 'taken') await app.audit(request, { action: 'user.created', target: made.email, after: { ...made, via: 'sso' } }, asUser(made));
    }
    if (!user) return refuse(request, reply, 'sso_failed', { returnPath, target: email });

    // The first sign-in binds the user to this provider account; another account with the same email is refused.
    const issuer = configuration.serverMetadata().issuer;
    let bound = await sso.subjectOf(user.id, issuer);
    if (bound === undefined) {
      await sso.bind(user.id, issuer, subject, now());
      bound = await sso.subjectOf(user.id, issuer);
    }
    if (bound !== subject) return refuse(request, reply, 'sso_mismatch', { returnPath, target: email });

    // Signing in by SSO accepts an invitation: its link sets no password on the account from now on.
    if (user.status === 'invited') await sso.endInvitations(user.id, now());
    await users.signedIn(user.id, now());
    const earlier = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (earlier) await sessions.close(earlier);
    const { token } = await sessions.open('console', SESSION_TTL_MS, now(), { userId: user.id });
    await app.audit(request, { action: 'login.succeeded', target: user.email, after: { via: 'sso' } }, asUser(user));
    return reply
      .code(303)
      .header('set-cookie', sessionCookie(request, token, SESSION_TTL_MS / 1000))
      .header('location', returnPath)
      .send();
  });
}

const asUser = (user: { id: string; email: string }): AuditActor => ({ kind: 'user', userId: user.id, email: user.email });
