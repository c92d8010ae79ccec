/**
 * Issue #31: a designer link's console is trusted only when it is the agent's own server or an origin the admin
 * listed in WAYMARK_CONSOLE_ORIGINS; the designer asks the server, which answers yes or no for one origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConsoleOrigin, untrustedConsoleMessage } from '../../shared/authoring/consoleOrigin';
import { consoleOriginsOf } from '../../server/auth/registerConsoleOrigins';
import { SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { consoleOrigins: ['https://console.example.com'] });
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

const ask = (query: string) => server.app.inject({ method: 'GET', url: `/data/console-origin${query}` });

describe('issue #31 the consoles a designer link may name', () => {
  it('answers whether one origin is listed, to any page, without publishing the list', async () => {
    expect((await ask('?origin=https%3A%2F%2Fconsole.example.com')).json()).toEqual({ allowed: true });
    expect((await ask('?origin=HTTPS%3A%2F%2FCONSOLE.example.com%2Fpath')).json()).toEqual({ allowed: true });
    expect((await ask('?origin=https%3A%2F%2Fevil.example')).json()).toEqual({ allowed: false });
    expect((await ask('?origin=https%3A%2F%2Fconsole.example.com.evil.example')).json()).toEqual({ allowed: false });
    expect((await ask('?origin=javascript%3Aalert(1)')).json()).toEqual({ allowed: false });
    const missing = await ask('');
    expect([missing.statusCode, missing.json().field]).toEqual([400, 'origin']);
    expect((await ask('?origin=a&origin=b')).statusCode).toBe(400);
    expect((await ask('?origin=https%3A%2F%2Fevil.example')).headers['access-control-allow-origin']).toBe('*');
  });

  it('reads WAYMARK_CONSOLE_ORIGINS as origins only, refusing anything else by name', () => {
    expect(consoleOriginsOf(undefined)).toEqual([]);
    expect(consoleOriginsOf(' https://a.example , http://127.0.0.1:8080/ ')).toEqual(['https://a.example', 'http://127.0.0.1:8080']);
    expect(() => consoleOriginsOf('https://a.example/console')).toThrow('WAYMARK_CONSOLE_ORIGINS: "https://a.example/console" is not an origin');
    expect(() => consoleOriginsOf('a.example')).toThrow('"a.example" is not an origin');
    expect(() => consoleOriginsOf('https://user@a.example')).toThrow('is not an origin');
  });

  it('the designer trusts its own server at once, a listed origin as the server answers, anything else never', async () => {
    const never = async () => {
      throw new Error('not asked');
    };
    expect(await checkConsoleOrigin('https://srv.example', 'https://srv.example', never)).toBeNull();
    expect(await checkConsoleOrigin('https://c.example', 'https://srv.example', async () => true)).toBeNull();
    expect(await checkConsoleOrigin('https://evil.example', 'https://srv.example', async () => false)).toBe(untrustedConsoleMessage('https://evil.example', 'https://srv.example'));
    expect(await checkConsoleOrigin('https://evil.example', 'https://srv.example', never)).toContain('names the console at https://evil.example');
  });
});
