/**
 * Issue #33 "Passwords": the rule (12 to 1024 characters, text), the hash (node:crypto's scrypt with a random salt
 * and its parameters stored; checked here against scryptSync itself, an independent call), the comparison in
 * constant time with as much work for an unknown account, and logins limited per account as well as per address,
 * the refusals the same whether the email has an account or not. On PGlite and on the real PostgreSQL.
 */
import { scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from '../../server/auth/users/passwords';
import { makeUser, TEST_PASSWORD } from './users';
import { SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

vi.setConfig({ testTimeout: 60_000 });

describe('issue #33 the password rule and hash', () => {
  it('refuses what is not 12 to 1024 characters of text, counting characters, not bytes or UTF-16 units', () => {
    expect(passwordProblem('elevenchars')).toBe('password is too short: at least 12 characters');
    expect(passwordProblem('twelve chars')).toBeUndefined();
    expect(passwordProblem('😀'.repeat(11))).toBe('password is too short: at least 12 characters');
    expect(passwordProblem('😀'.repeat(12))).toBeUndefined();
    expect(passwordProblem('x'.repeat(1024))).toBeUndefined();
    expect(passwordProblem('x'.repeat(1025))).toBe('password is too long: at most 1024 characters');
    expect(passwordProblem(`${'x'.repeat(12)}\uD800`)).toBe('password holds a character that is not text (a lone UTF-16 surrogate)');
    for (const value of [123456789012, null, undefined, ['twelve chars'], { a: 1 }, true]) {
      expect(passwordProblem(value)).toBe('password must be a string of 12 to 1024 characters');
    }
  });

  it('stores scrypt$N$r$p$salt$key, a fresh salt each time, the key scryptSync derives for those parameters', async () => {
    const a = await hashPassword(TEST_PASSWORD);
    const b = await hashPassword(TEST_PASSWORD);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    const [, n, r, p, salt, key] = a.split('$');
    const reference = scryptSync(TEST_PASSWORD, Buffer.from(salt!, 'base64url'), 32, { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 });
    expect(reference.toString('base64url')).toBe(key);
    expect(await verifyPassword(TEST_PASSWORD, a)).toBe(true);
    expect(await verifyPassword(`${TEST_PASSWORD} `, a)).toBe(false);
    // The same password whether é is one code point or e + a combining accent.
    expect(await verifyPassword('caf\u0065\u0301 au lait!!', await hashPassword('caf\u00e9 au lait!!'))).toBe(true);
  });

  it('no stored hash (an unknown email) or a damaged one: false, after as much scrypt work as a real check', async () => {
    const stored = await hashPassword(TEST_PASSWORD);
    const time = async (run: () => Promise<boolean>) => {
      const start = performance.now();
      expect(await run()).toBe(false);
      return performance.now() - start;
    };
    const real = await time(() => verifyPassword('wrong password!', stored));
    const none = await time(() => verifyPassword('wrong password!', null));
    expect(none).toBeGreaterThan(real / 4);
    // A row asking for 2^40 (minutes of work) or not ours is no password, answered without deriving with it.
    for (const damaged of ['scrypt$1099511627776$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'scrypt$3$8$1$AA$AA', 'plain text', '']) {
      expect(await verifyPassword(TEST_PASSWORD, damaged)).toBe(false);
    }
  });
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server?.close(), SERVER_TIMEOUT);

const login = (email: string, password: string, remoteAddress: string) =>
  server.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress });

describe('issue #33 logins limited per account and per address, saying nothing of who exists', () => {
  it('ten wrong passwords for one email from ten addresses: the eleventh try waits, right password or not; an unknown email alike', async () => {
    const user = await makeUser(server.app, 'editor', 'target@example.com');
    const answers = async (email: string, net: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 10; i++) {
        const wrong = await login(email, `not the password ${i}`, `${net}.${i}`);
        seen.push(`${wrong.statusCode} ${wrong.json().error}`);
      }
      const eleventh = await login(email, TEST_PASSWORD, `${net}.200`);
      seen.push(`${eleventh.statusCode} ${eleventh.json().error.replace(/\d+ s$/, 'N s')}`);
      expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(800);
      return seen;
    };
    const known = await answers(user.email, '10.7.1');
    expect(known).toEqual([...Array(10).fill('401 wrong email or password'), '429 too many attempts for this email: try again in N s']);
    expect(await answers('nobody@example.com', '10.7.2')).toEqual(known);
    // The account waits whatever the case of its email; another account does not.
    expect((await login('TARGET@example.com', TEST_PASSWORD, '10.7.3.1')).statusCode).toBe(429);
    const other = await makeUser(server.app, 'viewer');
    expect((await login(other.email, TEST_PASSWORD, '10.7.3.2')).statusCode).toBe(204);
  });

  it('a good password forgets the account\'s failures', async () => {
    const user = await makeUser(server.app, 'viewer');
    for (let i = 0; i < 9; i++) expect((await login(user.email, `nope nope nope ${i}`, `10.8.0.${i}`)).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, '10.8.1.1')).statusCode).toBe(204);
    for (let i = 0; i < 9; i++) expect((await login(user.email, `nope nope nope ${i}`, `10.8.2.${i}`)).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, '10.8.3.1')).statusCode).toBe(204);
  });

  it('one address trying many emails waits after ten, as with wrong tokens', async () => {
    for (let i = 0; i < 10; i++) expect((await login(`guess${i}@example.com`, 'some password here', '10.9.0.1')).statusCode).toBe(401);
    const limited = await login('guess11@example.com', 'some password here', '10.9.0.1');
    expect([limited.statusCode, limited.json().error]).toEqual([429, expect.stringMatching(/^too many attempts: try again in \d+ s$/)]);
    const token = await server.app.inject({ method: 'POST', url: '/api/login', payload: { token: 'wrong' }, remoteAddress: '10.9.0.1' });
    expect(token.statusCode).toBe(429);
  });

  it('a password over 1024 characters is refused before any hash, and costs the address no attempt', async () => {
    const user = await makeUser(server.app, 'viewer');
    for (let i = 0; i < 20; i++) {
      const long = await login(user.email, 'x'.repeat(100_000), '10.10.0.1');
      expect([long.statusCode, long.json()]).toEqual([400, { error: 'password is too long: at most 1024 characters', field: 'password' }]);
    }
    expect((await login(user.email, TEST_PASSWORD, '10.10.0.1')).statusCode).toBe(204);
  });
});
