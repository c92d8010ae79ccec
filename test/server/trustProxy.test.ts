/**
 * WAYMARK_TRUST_PROXY (issue #31): the values server/main.ts accepts and refuses (trustProxyOf), and what Fastify
 * itself makes of each accepted one (request.protocol, host and ip), checked on a bare Fastify with inject.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { trustFirstHop, trustProxyOf, type TrustProxy } from '../../server/trustProxyOf';

/** What a server with `trustProxy` sees of a request from `remoteAddress` carrying `headers`. */
async function seen(trustProxy: TrustProxy, remoteAddress: string, headers: Record<string, string>) {
  const app = Fastify({ trustProxy });
  app.get('/', async (request) => ({ protocol: request.protocol, host: request.host, ip: request.ip }));
  try {
    return (await app.inject({ method: 'GET', url: '/', remoteAddress, headers: { host: 'collector:8080', ...headers } })).json();
  } finally {
    await app.close();
  }
}

const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'waymark.example', 'x-forwarded-for': '203.0.113.9, 198.51.100.7' };

describe('issue #31 WAYMARK_TRUST_PROXY values', () => {
  it('trusts no one when unset, empty, 0 or false', () => {
    for (const text of [undefined, '', '  ', '0', 'false', 'FALSE']) expect(trustProxyOf(text)).toBe(false);
  });

  it('trusts the first hop for 1 or true', () => {
    for (const text of ['1', 'true', ' True ']) expect(trustProxyOf(text)).toBe(trustFirstHop);
  });

  it('reads a comma list of addresses, CIDR ranges and range names', () => {
    expect(trustProxyOf('10.0.0.5, 192.168.0.0/16,::1,fd00::/8 ,loopback')).toEqual(['10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback']);
    expect(trustProxyOf('127.0.0.1')).toEqual(['127.0.0.1']);
  });

  it('refuses anything else, naming the variable and the bad entry', () => {
    const bad: Array<[string, string]> = [
      ['yes', 'yes'],
      ['2', '2'],
      ['-1', '-1'],
      ['10.0.0.5,', ''],
      ['10.0.0.5,,10.0.0.6', ''],
      ['10.0.0.256', '10.0.0.256'],
      ['proxy.example', 'proxy.example'],
      ['10.0.0.0/0', '10.0.0.0/0'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['::/129', '::/129'],
      ['10.0.0.0/255.0.0.0', '10.0.0.0/255.0.0.0'],
      ['10.0.0.0/', '10.0.0.0/'],
      ['127.0.0.1 10.0.0.1', '127.0.0.1 10.0.0.1'],
    ];
    for (const [text, entry] of bad) {
      expect(() => trustProxyOf(text), text).toThrow(`WAYMARK_TRUST_PROXY must be 1 or true`);
      expect(() => trustProxyOf(text), text).toThrow(`got '${text}' ('${entry}' is none of these)`);
    }
  });

  it('refuses a bad value at the server\'s start, before opening anything', () => {
    const root = join(import.meta.dirname, '../..');
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
      cwd: root,
      env: { ...process.env, PORT: '0', WAYMARK_TRUST_PROXY: 'on', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("WAYMARK_TRUST_PROXY must be 1 or true (trust the first hop), 0 or false (trust none)");
    expect(run.stderr).toContain("got 'on'");
  }, 30_000);
});

describe('issue #31 what Fastify makes of each trust', () => {
  it('not trusted: X-Forwarded-* ignored', async () => {
    expect(await seen(trustProxyOf(undefined), '10.1.1.1', FORWARDED)).toEqual({ protocol: 'http', host: 'collector:8080', ip: '10.1.1.1' });
  });

  it('first hop: the proxy\'s scheme and host, and the address the proxy saw, not one a client wrote before it', async () => {
    expect(await seen(trustProxyOf('1'), '10.1.1.1', FORWARDED)).toEqual({ protocol: 'https', host: 'waymark.example', ip: '198.51.100.7' });
    // Straight from a client, no X-Forwarded-For: its own address.
    expect(await seen(trustProxyOf('1'), '10.1.1.1', {})).toEqual({ protocol: 'http', host: 'collector:8080', ip: '10.1.1.1' });
  });

  it('an address list: believed from a listed proxy only, hop by hop', async () => {
    const trust = trustProxyOf('10.1.1.1, 198.51.100.0/24');
    expect(await seen(trust, '10.1.1.1', FORWARDED)).toEqual({ protocol: 'https', host: 'waymark.example', ip: '203.0.113.9' });
    expect(await seen(trust, '10.9.9.9', FORWARDED)).toEqual({ protocol: 'http', host: 'collector:8080', ip: '10.9.9.9' });
  });
});
