/**
 * Users for the server tests of issue #33: made through the API as an admin would (the admin token), signed in
 * with their email and password, each with a personal API token, so a test can call any route as any role.
 */
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '../../server/auth/registerAuth';
import { readCookie } from '../../server/auth/requestCredentials';
import { ADMIN_HEADERS } from './testServer';

/** The password of every test user (12 characters or more). */
export const TEST_PASSWORD = 'correct horse battery';

/** A user made for a test, signed in. */
export interface TestUser {
  id: string;
  email: string;
  role: string;
  /** `Authorization: Bearer <personal token>`. */
  bearer: { authorization: string };
  /** The console login's cookie and the header its changes need. */
  console: { cookie: string; 'x-waymark-console': string };
}

let made = 0;

/** The cookie header of a response's session cookie. */
export const cookieOf = (response: { headers: Record<string, unknown> }) => `${SESSION_COOKIE}=${readCookie(String(response.headers['set-cookie']), SESSION_COOKIE)}`;

/** Makes a user of `role` (with the admin token), signs them in, and gives them a personal token. */
export async function makeUser(app: FastifyInstance, role: 'admin' | 'editor' | 'viewer', email = `user${++made}-${role}@example.com`): Promise<TestUser> {
  const created = await app.inject({ method: 'POST', url: '/api/users', headers: ADMIN_HEADERS, payload: { email, role, password: TEST_PASSWORD } });
  if (created.statusCode !== 201) throw new Error(`POST /api/users answered ${created.statusCode}: ${created.body}`);
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: TEST_PASSWORD }, remoteAddress: `10.33.${made % 250}.${(made * 7) % 250}` });
  if (login.statusCode !== 204) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
  const consoleHeaders = { cookie: cookieOf(login), 'x-waymark-console': '1' };
  const token = await app.inject({ method: 'POST', url: '/api/me/tokens', headers: consoleHeaders, payload: { name: 'tests' } });
  if (token.statusCode !== 201) throw new Error(`POST /api/me/tokens answered ${token.statusCode}: ${token.body}`);
  return { id: created.json().id, email, role, bearer: { authorization: `Bearer ${token.json().token}` }, console: consoleHeaders };
}
