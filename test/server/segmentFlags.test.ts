import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSegmentRules, parseSegmentRules } from '../../server/ingest/createSegmentRules';
import { nodeJzb, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

/** The rules of server/demo/segment-rules.json, read from the file so the demo and the tests agree. */
const DEMO_RULES = JSON.parse(readFileSync(new URL('../../server/demo/segment-rules.json', import.meta.url), 'utf8'));

const root = mkdtempSync(join(tmpdir(), 'waymark-segment-rules-'));
const rulesFile = join(root, 'segment-rules.json');
let server: TestServer;
const warnings: string[] = [];
const realWarn = console.warn;

beforeAll(async () => {
  writeFileSync(rulesFile, JSON.stringify(DEMO_RULES));
  server = await startTestServer({}, { segmentRulesFile: rulesFile });
}, SERVER_TIMEOUT);
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
}, SERVER_TIMEOUT);

function payload(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    visitorId: 'visitor-1',
    accountId: 'globex',
    metadata: { visitor: {}, account: {}, parentAccount: {} },
    url: 'http://127.0.0.1/',
    ...fields,
  };
}

async function flagsOf(body: Record<string, unknown>, id = '7'): Promise<string[]> {
  const response = await server.app.inject({ method: 'GET', url: `/data/segmentflag.json/seg-key?id=${id}&jzb=${nodeJzb(body)}&v=0.1.0&ct=1` });
  expect(response.statusCode, response.body).toBe(200);
  const json = response.json();
  expect(json.id).toBe(id);
  return json.segmentFlags;
}

/** Writes the rules file with a modification time `seconds` in the future, so the change is always seen. */
function writeRules(content: unknown, seconds: number): void {
  writeFileSync(rulesFile, typeof content === 'string' ? content : JSON.stringify(content));
  const when = new Date(Date.now() + seconds * 1000);
  utimesSync(rulesFile, when, when);
}

describe('analytics §7 segment flags: GET /data/segmentflag.json/{apiKey}', () => {
  it('answers {id, segmentFlags} with only "everyone" for a visitor no other rule matches', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/data/segmentflag.json/seg-key?id=3&jzb=${nodeJzb(payload())}`,
      headers: { origin: 'https://host.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: '3', segmentFlags: ['everyone'] });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('matches an exact visitor metadata value (visitor.plan)', async () => {
    expect(await flagsOf(payload({ metadata: { visitor: { plan: 'pro' }, account: {}, parentAccount: {} } }))).toEqual(['beta-tester', 'everyone']);
    expect(await flagsOf(payload({ metadata: { visitor: { plan: 'free' }, account: {}, parentAccount: {} } }))).toEqual(['everyone']);
  });

  it('matches the account id exactly', async () => {
    expect(await flagsOf(payload({ accountId: 'acme' }))).toEqual(['acme-staff', 'everyone']);
    expect(await flagsOf(payload({ accountId: 'acme-2' }))).toEqual(['everyone']);
  });

  it('matches startsWith on visitor.language and contains on the url', async () => {
    const fr = (language: string) => payload({ metadata: { visitor: { language: language }, account: {}, parentAccount: {} } });
    expect(await flagsOf(fr('fr-CA'))).toEqual(['everyone', 'fr-speakers']);
    expect(await flagsOf(fr('en-FR'))).toEqual(['everyone']);
    expect(await flagsOf(payload({ url: 'http://127.0.0.1/reports?tab=2' }))).toEqual(['everyone', 'reports-page']);
    expect(await flagsOf(payload({ url: 'http://127.0.0.1/settings' }))).toEqual(['everyone']);
  });

  it('gives every flag whose conditions all hold, in file order', async () => {
    const all = payload({
      accountId: 'acme',
      url: 'http://127.0.0.1/reports',
      metadata: { visitor: { plan: 'pro', language: 'fr' }, account: {}, parentAccount: {} },
    });
    expect(await flagsOf(all)).toEqual(['beta-tester', 'acme-staff', 'everyone', 'fr-speakers', 'reports-page']);
  });

  it('a missing metadata value matches nothing, and metadata may be left out', async () => {
    expect(await flagsOf({ visitorId: 'v', url: 'http://127.0.0.1/' })).toEqual(['everyone']);
  });
});

describe('analytics §7 segment flags: POST', () => {
  it('accepts {events: jzb} with jwt fields, and {events: {...payload}}, as JSON or text/plain', async () => {
    const pro = payload({ metadata: { visitor: { plan: 'pro' }, account: {}, parentAccount: {} } });
    const bodies = [
      { events: nodeJzb(pro), jwt: 'a.b.c', signingKeyName: 'key-a' },
      { events: pro },
    ];
    for (const body of bodies) {
      for (const contentType of ['application/json', 'text/plain']) {
        const response = await server.app.inject({
          method: 'POST',
          url: '/data/segmentflag.json/seg-key?id=9&v=0.1.0&ct=1',
          headers: { 'content-type': contentType },
          payload: JSON.stringify(body),
        });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toEqual({ id: '9', segmentFlags: ['beta-tester', 'everyone'] });
        expect(response.headers['access-control-allow-origin']).toBe('*');
      }
    }
  });

  it('answers the CORS preflight of a JSON POST', async () => {
    const response = await server.app.inject({
      method: 'OPTIONS',
      url: '/data/segmentflag.json/seg-key?id=1',
      headers: { origin: 'https://host.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type, x-waymark-console');
  });
});

describe('analytics §7 segment flags: bad input answers 400 with a reason', () => {
  const cases: Array<[string, 'GET' | 'POST', string, unknown?]> = [
    ['no api key', 'GET', `/data/segmentflag.json?id=1&jzb=${nodeJzb(payload())}`],
    ['no api key (POST)', 'POST', '/data/segmentflag.json?id=1', { events: nodeJzb(payload()) }],
    ['no jzb', 'GET', '/data/segmentflag.json/seg-key?id=1'],
    ['an empty jzb', 'GET', '/data/segmentflag.json/seg-key?id=1&jzb='],
    ['a jzb outside base64url', 'GET', '/data/segmentflag.json/seg-key?id=1&jzb=a+b/c=='],
    ['a jzb that is not zlib', 'GET', `/data/segmentflag.json/seg-key?id=1&jzb=${Buffer.from('hello world').toString('base64url')}`],
    ['a jzb given twice', 'GET', `/data/segmentflag.json/seg-key?id=1&jzb=${nodeJzb(payload())}&jzb=${nodeJzb(payload())}`],
    ['an id given twice', 'GET', `/data/segmentflag.json/seg-key?id=1&id=2&jzb=${nodeJzb(payload())}`],
    ['a payload that is an array', 'GET', `/data/segmentflag.json/seg-key?id=1&jzb=${nodeJzb([payload()])}`],
    ['a payload that is a string', 'GET', `/data/segmentflag.json/seg-key?id=1&jzb=${nodeJzb('visitor-1')}`],
    ['a numeric visitorId', 'GET', `/data/segmentflag.json/seg-key?id=1&jzb=${nodeJzb(payload({ visitorId: 42 }))}`],
    ['metadata that is a list', 'GET', `/data/segmentflag.json/seg-key?id=1&jzb=${nodeJzb(payload({ metadata: [] }))}`],
    ['metadata.visitor that is a string', 'GET', `/data/segmentflag.json/seg-key?id=1&jzb=${nodeJzb(payload({ metadata: { visitor: 'pro' } }))}`],
    ['a body without events', 'POST', '/data/segmentflag.json/seg-key?id=1', { visitorId: 'v' }],
    ['a body that is an array', 'POST', '/data/segmentflag.json/seg-key?id=1', [nodeJzb(payload())]],
    ['events that is a bad jzb', 'POST', '/data/segmentflag.json/seg-key?id=1', { events: 'not*jzb' }],
    ['events that is a list', 'POST', '/data/segmentflag.json/seg-key?id=1', { events: [payload()] }],
    ['a text/plain body that is not JSON', 'POST', '/data/segmentflag.json/seg-key?id=1', 'events='],
  ];
  for (const [name, method, url, body] of cases) {
    it(`${name}`, async () => {
      const response = await server.app.inject({
        method,
        url,
        ...(body === undefined
          ? {}
          : typeof body === 'string'
            ? { payload: body, headers: { 'content-type': 'text/plain' } }
            : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      expect(response.statusCode, response.body).toBe(400);
      const error = response.json().error;
      expect(typeof error).toBe('string');
      expect(error.length).toBeGreaterThan(10);
      expect(response.headers['access-control-allow-origin']).toBe('*');
    });
  }

  it('names what is wrong', async () => {
    const error = async (url: string) => (await server.app.inject({ method: 'GET', url })).json().error as string;
    expect(await error('/data/segmentflag.json?jzb=x')).toMatch(/apiKey is missing/);
    expect(await error('/data/segmentflag.json/seg-key?id=1')).toMatch(/jzb is missing/);
    expect(await error(`/data/segmentflag.json/seg-key?jzb=${nodeJzb([])}`)).toMatch(/payload must be an object/);
  });
});

describe('segment rules file', () => {
  it('is re-read when it changes; a malformed file warns and gives no flags until fixed', async () => {
    const caught: string[] = [];
    console.warn = (message: string) => void caught.push(String(message));
    try {
      writeRules([{ flag: 'only-pro', when: { 'visitor.plan': { in: ['pro', 'enterprise'] } } }], 10);
      const enterprise = payload({ metadata: { visitor: { plan: 'enterprise' }, account: {}, parentAccount: {} } });
      expect(await flagsOf(enterprise)).toEqual(['only-pro']);
      writeRules('[{"flag": "broken", "when": ', 20);
      expect(await flagsOf(enterprise)).toEqual([]);
      expect(await flagsOf(enterprise)).toEqual([]);
      expect(caught).toHaveLength(1);
      expect(caught[0]).toContain('ignoring segment rules file');
      writeRules(DEMO_RULES, 30);
      expect(await flagsOf(payload())).toEqual(['everyone']);
      expect(caught).toHaveLength(1);
    } finally {
      console.warn = realWarn;
    }
  });

  it('a missing file warns once and gives no flags', async () => {
    const warned: string[] = [];
    const rules = createSegmentRules({ file: join(root, 'absent.json'), warn: (m) => void warned.push(m) });
    expect(await rules.flagsFor({})).toEqual([]);
    expect(await rules.flagsFor({})).toEqual([]);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('cannot be read');
  });

  it('rejects rules with a reason naming the rule', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ flag: 'x', when: {} }, /JSON array/],
      [[{ when: {} }], /rule 0: flag must be a non-empty string/],
      [[{ flag: 'x' }], /rule 0 \(x\): when must be an object/],
      [[{ flag: 'ok', when: {} }, { flag: 'x', when: { 'visitor': 'pro' } }], /rule 1 \(x\), condition "visitor": unknown path/],
      [[{ flag: 'x', when: { plan: 'pro' } }], /unknown path/],
      [[{ flag: 'x', when: { 'visitor.plan': { matches: 'p.*' } } }], /exactly one operator/],
      [[{ flag: 'x', when: { 'visitor.plan': { equals: 'a', in: ['b'] } } }], /exactly one operator/],
      [[{ flag: 'x', when: { 'visitor.plan': { in: 'pro' } } }], /in needs an array/],
      [[{ flag: 'x', when: { url: { startsWith: 3 } } }], /startsWith needs a string/],
      [[{ flag: 'x', when: { url: ['a'] } }], /must be a string, number/],
    ];
    for (const [rules, reason] of bad) expect(() => parseSegmentRules(rules), JSON.stringify(rules)).toThrow(reason);
    expect(parseSegmentRules(DEMO_RULES)).toHaveLength(5);
  });

  it('supports equals, contains on arrays, numbers, parentAccount and nested paths', async () => {
    const file = join(root, 'more-rules.json');
    writeFileSync(
      file,
      JSON.stringify([
        { flag: 'admin', when: { 'visitor.roles': { contains: 'admin' } } },
        { flag: 'big', when: { 'account.seats': 100, 'parentAccount.region.code': { equals: 'eu' } } },
        { flag: 'visitor-7', when: { visitorId: 'visitor-7' } },
        { flag: 'admin', when: { visitorId: 'root' } },
      ]),
    );
    const rules = createSegmentRules({ file, warn: (m) => warnings.push(m) });
    const subject = (visitor: unknown, account: unknown, parentAccount: unknown, visitorId = 'visitor-7') => ({
      visitorId,
      metadata: { visitor, account, parentAccount },
    });
    expect(await rules.flagsFor(subject({ roles: ['user', 'admin'] }, { seats: 100 }, { region: { code: 'eu' } }))).toEqual(['admin', 'big', 'visitor-7']);
    expect(await rules.flagsFor(subject({ roles: 'administrator' }, { seats: '100' }, { region: { code: 'eu' } }, 'root'))).toEqual(['admin']);
    expect(await rules.flagsFor(subject({ roles: ['user'] }, { seats: 100 }, { region: 'eu' }))).toEqual(['visitor-7']);
    expect(warnings).toEqual([]);
  });
});
