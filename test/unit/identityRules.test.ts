/**
 * Identity, session and signed-metadata rules (spec: analytics §3, §4, §5, §9).
 */
import { describe, expect, it } from 'vitest';
import { ANONYMOUS_VISITOR_PREFIX, SESSION_INACTIVITY_MS } from '../../shared/constants';
import { checkSignedMetadata, decideMetadataUse } from '../../shared/identity/checkSignedMetadata';
import {
  continuesVisitor,
  clearIdentity,
  combineAccountId,
  createAnonymousVisitorId,
  DEFAULT_VISITOR_ID,
  ID_SEPARATOR,
  isAnonymousVisitorId,
  isValidId,
  normalizeId,
  randomAlphanumeric,
  resolveIdentify,
  resolveInitialVisitor,
} from '../../shared/identity/identityRules';
import { MESSAGES } from '../../shared/messages';
import { createSessionId, nextSession, type SessionRecord } from '../../shared/identity/sessionRules';

/** A random source that walks the alphabet: 0/62, 1/62, ... so ids read 'ABCD...'. */
function counting(start = 0): () => number {
  let i = start;
  return () => (i++ % 62) / 62 + 1e-9;
}
const zero = () => 0;

const ANON = `${ANONYMOUS_VISITOR_PREFIX}AAAAAAAAAAA`;
const ANON_PATTERN = /^_WM_[A-Za-z0-9]{11}$/;

describe('analytics §5 identity: id validity', () => {
  it('refuses empty, whitespace, booleans, objects, arrays, the separator and non-finite numbers', () => {
    for (const value of ['', ' ', '\t\n ', true, false, {}, [], ['a'], { id: 'a' }, null, undefined, 'a::b', '::', 'acme::', NaN, Infinity, -Infinity, 10n, () => 'a']) {
      expect(isValidId(value), String(value)).toBe(false);
      expect(normalizeId(value)).toBeNull();
    }
  });

  it('accepts non-blank strings as given, and finite numbers as their decimal string', () => {
    expect(normalizeId('alice')).toBe('alice');
    expect(normalizeId(' alice ')).toBe(' alice ');
    expect(normalizeId('a:b')).toBe('a:b');
    expect(normalizeId(42)).toBe('42');
    expect(normalizeId(0)).toBe('0');
    expect(normalizeId(-1.5)).toBe('-1.5');
    expect(isValidId(42)).toBe(true);
    expect(isValidId(DEFAULT_VISITOR_ID)).toBe(true);
    expect(ID_SEPARATOR).toBe('::');
  });
});

describe('analytics §3 identity: anonymous visitor ids', () => {
  it('is the prefix and exactly 11 alphanumerics drawn from random', () => {
    expect(createAnonymousVisitorId(zero)).toBe(ANON);
    expect(createAnonymousVisitorId(counting())).toBe('_WM_ABCDEFGHIJK');
    expect(createAnonymousVisitorId(counting(52))).toBe('_WM_0123456789A');
    expect(createAnonymousVisitorId(Math.random)).toMatch(ANON_PATTERN);
  });

  it('maps the 62 slots of [0, 1) onto A-Z, a-z, 0-9 in order', () => {
    let n = 0;
    expect(randomAlphanumeric(62, () => (n++ + 0.5) / 62)).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
  });

  it('clamps a faulty random source so the shape holds', () => {
    expect(randomAlphanumeric(3, () => 1)).toBe('999');
    expect(randomAlphanumeric(3, () => -5)).toBe('AAA');
    expect(randomAlphanumeric(3, () => NaN)).toBe('AAA');
  });

  it('recognises anonymous ids by the prefix', () => {
    expect(isAnonymousVisitorId(ANON)).toBe(true);
    expect(isAnonymousVisitorId('alice')).toBe(false);
    expect(isAnonymousVisitorId('x_WM_AAAAAAAAAAA')).toBe(false);
  });
});

describe('analytics §3 identity: parent account', () => {
  it("combines as 'parent::account' only when both are valid", () => {
    expect(combineAccountId('acme', 'holding')).toBe('holding::acme');
    expect(combineAccountId(7, 1)).toBe('1::7');
    expect(combineAccountId('acme')).toBe('acme');
    expect(combineAccountId('acme', '')).toBe('acme');
    expect(combineAccountId('acme', 'a::b')).toBe('acme');
    expect(combineAccountId('', 'holding')).toBeNull();
    expect(combineAccountId(true, 'holding')).toBeNull();
  });
});

describe('analytics §4 identity: the same person across an identity change', () => {
  it('an anonymous visitor signing in continues; any other change is another person', () => {
    const anon = `${ANONYMOUS_VISITOR_PREFIX}abcdefghijk`;
    expect(continuesVisitor('dana', 'dana')).toBe(true);
    expect(continuesVisitor(anon, 'dana')).toBe(true);
    expect(continuesVisitor(anon, DEFAULT_VISITOR_ID)).toBe(false);
    expect(continuesVisitor('dana', 'sam')).toBe(false);
    expect(continuesVisitor('dana', anon)).toBe(false);
    expect(continuesVisitor(anon, `${ANONYMOUS_VISITOR_PREFIX}zyxwvutsrqp`)).toBe(false);
  });
});

describe('analytics §4 identity: identify', () => {
  const known = { visitorId: 'alice', accountId: 'acme' };

  it('remap truth table: only anonymous -> valid, known, non-default', () => {
    const cases: [string, unknown, boolean, string][] = [
      [ANON, 'alice', true, 'alice'],
      [ANON, 42, true, '42'],
      [ANON, '_WM_BBBBBBBBBBB', false, '_WM_BBBBBBBBBBB'],
      ['alice', 'bob', false, 'bob'],
      [ANON, DEFAULT_VISITOR_ID, false, DEFAULT_VISITOR_ID],
      [ANON, 'a::b', false, ANON],
      [ANON, '  ', false, ANON],
      [ANON, ANON, false, ANON],
    ];
    for (const [from, to, remap, visitorId] of cases) {
      const decision = resolveIdentify({ visitorId: from, accountId: '' }, { visitorId: to }, zero);
      expect({ remap: decision.remap, visitorId: decision.visitorId }, `${from} -> ${String(to)}`).toEqual({ remap, visitorId });
    }
  });

  it('an anonymous visitor signing in changes identity and remaps', () => {
    expect(resolveIdentify({ visitorId: ANON, accountId: '' }, { visitorId: 'alice', accountId: 'acme' }, zero)).toEqual({
      visitorId: 'alice',
      accountId: 'acme',
      changed: true,
      remap: true,
      accountChanged: true,
      logs: [],
    });
  });

  it('an invalid visitor is ignored and logged by value; the current visitor stays', () => {
    for (const [value, shown] of [[true, 'true'], [{}, 'object'], [[], 'array'], ['', '""'], ['a::b', '"a::b"'], [null, 'null'], [NaN, 'NaN']] as const) {
      const decision = resolveIdentify(known, { visitorId: value }, zero);
      expect(decision.visitorId).toBe('alice');
      expect(decision.changed).toBe(false);
      expect(decision.logs).toEqual([MESSAGES.invalidVisitorId(shown)]);
    }
    expect(MESSAGES.invalidVisitorId('"a::b"')).toBe('Invalid visitor id "a::b", ignored.');
  });

  it('fields not given keep their values silently', () => {
    expect(resolveIdentify(known, {}, zero)).toEqual({ ...known, changed: false, remap: false, accountChanged: false, logs: [] });
    const accountOnly = resolveIdentify(known, { accountId: 'globex' }, zero);
    expect(accountOnly).toMatchObject({ visitorId: 'alice', accountId: 'globex', changed: true, accountChanged: true, remap: false });
  });

  it('account change only when the new account is valid and differs', () => {
    expect(resolveIdentify(known, { accountId: 'acme' }, zero)).toMatchObject({ accountChanged: false, changed: false });
    expect(resolveIdentify(known, { accountId: 9 }, zero)).toMatchObject({ accountId: '9', accountChanged: true, changed: true });
  });

  it('an invalid account clears the account, is logged, and is not an account change', () => {
    for (const [value, shown] of [['', '""'], [' ', '" "'], [false, 'false'], ['x::y', '"x::y"'], [null, 'null']] as const) {
      const decision = resolveIdentify(known, { accountId: value }, zero);
      expect(decision).toEqual({
        visitorId: 'alice',
        accountId: '',
        changed: true,
        remap: false,
        accountChanged: false,
        logs: [MESSAGES.invalidAccountId(shown)],
      });
    }
    expect(MESSAGES.invalidAccountId('false')).toBe('Invalid account id false, account cleared.');
  });

  it('combines a parent account; an invalid parent is logged and the account is used alone', () => {
    expect(resolveIdentify(known, { accountId: 'acme', parentAccountId: 'holding' }, zero)).toMatchObject({
      accountId: 'holding::acme',
      accountChanged: true,
      logs: [],
    });
    const badParent = resolveIdentify({ visitorId: 'alice', accountId: 'holding::acme' }, { accountId: 'acme', parentAccountId: true }, zero);
    expect(badParent).toMatchObject({ accountId: 'acme', accountChanged: true, logs: [MESSAGES.invalidParentAccountId('true')] });
    // A parent without an account in the same call does nothing.
    expect(resolveIdentify(known, { parentAccountId: 'holding' }, zero)).toMatchObject({ accountId: 'acme', changed: false });
  });

  it('logs the visitor line before the account line', () => {
    const decision = resolveIdentify(known, { visitorId: false, accountId: {} }, zero);
    expect(decision.logs).toEqual(['Invalid visitor id false, ignored.', 'Invalid account id object, account cleared.']);
  });

  it('clearing identity makes a new anonymous visitor and no account', () => {
    expect(clearIdentity(counting())).toEqual({ visitorId: '_WM_ABCDEFGHIJK', accountId: '' });
  });
});

describe('analytics §5 identity: missing visitor at initialize', () => {
  it("uses a valid given id and logs nothing", () => {
    expect(resolveInitialVisitor('alice', ANON, zero)).toEqual({ visitorId: 'alice', generated: false, logs: [] });
    expect(resolveInitialVisitor(17, null, zero)).toEqual({ visitorId: '17', generated: false, logs: [] });
  });

  it("reports 'Missing visitor id.' and generates an anonymous id when nothing is stored", () => {
    expect(MESSAGES.missingVisitorId).toBe('Missing visitor id.');
    for (const value of [undefined, null, '']) {
      expect(resolveInitialVisitor(value, null, counting())).toEqual({
        visitorId: '_WM_ABCDEFGHIJK',
        generated: true,
        logs: ['Missing visitor id.'],
      });
    }
  });

  it('reuses a stored anonymous id, but never a stored known or invalid one', () => {
    expect(resolveInitialVisitor(undefined, '_WM_storedId123', zero)).toEqual({
      visitorId: '_WM_storedId123',
      generated: false,
      logs: ['Missing visitor id.'],
    });
    for (const stored of ['alice', '', '_WM_a::b', undefined]) {
      expect(resolveInitialVisitor(undefined, stored, zero).visitorId, String(stored)).toBe(ANON);
    }
  });

  it('names an invalid given id before reporting it missing', () => {
    expect(resolveInitialVisitor('a::b', null, zero)).toEqual({
      visitorId: ANON,
      generated: true,
      logs: ['Invalid visitor id "a::b", ignored.', 'Missing visitor id.'],
    });
    expect(resolveInitialVisitor('   ', null, zero).logs).toEqual(['Invalid visitor id "   ", ignored.', 'Missing visitor id.']);
  });
});

describe('analytics §4 session', () => {
  const T0 = 1_700_000_000_000;
  const anonRecord: SessionRecord = { sessionId: 'S'.repeat(16), lastActivityAt: T0, visitorId: ANON };
  const aliceRecord: SessionRecord = { ...anonRecord, visitorId: 'alice' };

  it('creates a 16-character alphanumeric id from random', () => {
    expect(createSessionId(counting())).toBe('ABCDEFGHIJKLMNOP');
    expect(createSessionId(Math.random)).toMatch(/^[A-Za-z0-9]{16}$/);
  });

  it('starts the first session', () => {
    expect(nextSession(null, T0, ANON, zero)).toEqual({
      record: { sessionId: 'A'.repeat(16), lastActivityAt: T0, visitorId: ANON },
      isNew: true,
      reason: 'first',
    });
  });

  it('keeps the session at 29:59.999 of inactivity and renews it at 30:00.000', () => {
    expect(SESSION_INACTIVITY_MS).toBe(1_800_000);
    const kept = nextSession(aliceRecord, T0 + 1_799_999, 'alice', zero);
    expect(kept).toEqual({ record: { sessionId: 'S'.repeat(16), lastActivityAt: T0 + 1_799_999, visitorId: 'alice' }, isNew: false, reason: 'none' });
    const renewed = nextSession(aliceRecord, T0 + 1_800_000, 'alice', counting());
    expect(renewed).toEqual({ record: { sessionId: 'ABCDEFGHIJKLMNOP', lastActivityAt: T0 + 1_800_000, visitorId: 'alice' }, isNew: true, reason: 'inactivity' });
  });

  it('activity slides the window', () => {
    const first = nextSession(aliceRecord, T0 + 1_000_000, 'alice', zero);
    const second = nextSession(first.record, T0 + 2_799_999, 'alice', zero);
    expect(second.isNew).toBe(false);
    expect(nextSession(second.record, T0 + 2_799_999 + 1_800_000, 'alice', zero).reason).toBe('inactivity');
  });

  it('a clock going backwards keeps the session and stores the earlier time', () => {
    expect(nextSession(aliceRecord, T0 - 5_000_000, 'alice', zero)).toEqual({
      record: { ...aliceRecord, lastActivityAt: T0 - 5_000_000 },
      isNew: false,
      reason: 'none',
    });
  });

  it('renews when a known visitor changes, including logging out to anonymous', () => {
    expect(nextSession(aliceRecord, T0 + 1, 'bob', counting())).toEqual({
      record: { sessionId: 'ABCDEFGHIJKLMNOP', lastActivityAt: T0 + 1, visitorId: 'bob' },
      isNew: true,
      reason: 'visitorChanged',
    });
    expect(nextSession(aliceRecord, T0 + 1, ANON, zero).reason).toBe('visitorChanged');
  });

  it('keeps the session when an anonymous visitor signs in or is replaced by another anonymous id', () => {
    expect(nextSession(anonRecord, T0 + 1, 'alice', zero)).toEqual({
      record: { sessionId: 'S'.repeat(16), lastActivityAt: T0 + 1, visitorId: 'alice' },
      isNew: false,
      reason: 'none',
    });
    expect(nextSession(anonRecord, T0 + 1, '_WM_BBBBBBBBBBB', zero).isNew).toBe(false);
  });

  it('reports inactivity before a visitor change when both apply', () => {
    expect(nextSession(aliceRecord, T0 + SESSION_INACTIVITY_MS, 'bob', zero).reason).toBe('inactivity');
  });
});

describe('analytics §5 signed metadata', () => {
  const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJ2aXNpdG9yIjp7ImlkIjoiYWxpY2UifX0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

  it('neither field: ok without auth', () => {
    expect(checkSignedMetadata({})).toEqual({ ok: true });
    expect(checkSignedMetadata({ jwt: '', signingKeyName: null })).toEqual({ ok: true });
  });

  it('one field without the other fails', () => {
    expect(checkSignedMetadata({ jwt: JWT })).toEqual({ ok: false, error: MESSAGES.jwtWithoutSigningKeyName });
    expect(checkSignedMetadata({ signingKeyName: 'key-1' })).toEqual({ ok: false, error: MESSAGES.signingKeyNameWithoutJwt });
    expect(MESSAGES.jwtWithoutSigningKeyName).toBe('Signed metadata has a jwt but no signingKeyName');
    expect(MESSAGES.signingKeyNameWithoutJwt).toBe('Signed metadata has a signingKeyName but no jwt');
  });

  it('accepts three URL-safe base64 parts', () => {
    expect(checkSignedMetadata({ jwt: JWT, signingKeyName: 'key-1' })).toEqual({ ok: true, auth: { jwt: JWT, signingKeyName: 'key-1' } });
    expect(checkSignedMetadata({ jwt: 'ab.cd-_.ef', signingKeyName: 'k' }).ok).toBe(true);
  });

  it('refuses any other jwt shape', () => {
    expect(MESSAGES.invalidJwt).toBe('Signed metadata jwt must be three dot-separated URL-safe base64 parts');
    const bad = [
      'ab.cd', // two parts
      'ab.cd.ef.gh', // four parts
      'ab..ef', // empty part
      'ab.cd.', // empty signature (alg: none)
      '.cd.ef',
      'ab.c+d.ef', // '+' is standard, not URL-safe, base64
      'ab.c/d.ef',
      'ab.cd.ef==', // padding
      'ab.cd .ef', // space
      'ab.cd.e', // 4n+1 characters decode to no whole byte
      'abc',
      42,
      {},
    ];
    for (const jwt of bad) {
      expect(checkSignedMetadata({ jwt, signingKeyName: 'k' }), String(jwt)).toEqual({ ok: false, error: MESSAGES.invalidJwt });
    }
  });

  it('refuses a signingKeyName that is not a non-blank string', () => {
    for (const signingKeyName of ['  ', 7, true]) {
      expect(checkSignedMetadata({ jwt: JWT, signingKeyName })).toEqual({ ok: false, error: MESSAGES.invalidSigningKeyName });
    }
  });

  it('decides signed, unsigned or refuse by mode', () => {
    const valid = checkSignedMetadata({ jwt: JWT, signingKeyName: 'k' });
    const invalid = checkSignedMetadata({ jwt: 'ab.cd', signingKeyName: 'k' });
    const missing = checkSignedMetadata({});
    const auth = { jwt: JWT, signingKeyName: 'k' };

    expect(decideMetadataUse('required', valid)).toEqual({ use: 'signed', auth });
    expect(decideMetadataUse('required', invalid)).toEqual({ use: 'refuse', error: MESSAGES.invalidJwt });
    expect(decideMetadataUse('required', missing)).toEqual({ use: 'refuse', error: MESSAGES.signedMetadataRequired });

    expect(decideMetadataUse('enabled', valid)).toEqual({ use: 'signed', auth });
    expect(decideMetadataUse('enabled', invalid)).toEqual({ use: 'unsigned', error: MESSAGES.invalidJwt });
    expect(decideMetadataUse('enabled', missing)).toEqual({ use: 'unsigned' });

    expect(decideMetadataUse('off', valid)).toEqual({ use: 'unsigned' });
    expect(decideMetadataUse('off', invalid)).toEqual({ use: 'unsigned' });
  });
});
