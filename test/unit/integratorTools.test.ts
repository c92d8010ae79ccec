/**
 * Issue #17 integrator tools, their pure parts: install validation (analytics §5: every warning the spec lists),
 * the URL check, and how a report reads.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/messages';
import { reportOf } from '../../shared/validation/finding';
import { installFindings, isExampleId, type InstallFacts } from '../../shared/validation/installFindings';
import { urlFindings } from '../../shim/tools/urlFindings';

const facts = (over: Partial<InstallFacts> = {}): InstallFacts => ({
  initializeCalled: true,
  running: true,
  apiKey: 'app-1',
  visitorId: 'user-42',
  accountId: 'acme',
  metadata: { visitor: { id: 'user-42', email: 'a@b.c' }, account: { id: 'acme' } },
  cookiesEnabled: true,
  localStorageOnly: false,
  ...over,
});
const messages = (f: InstallFacts) => installFindings(f).map((x) => `${x.level}: ${x.message}`);

describe('issue #17 validateInstall (analytics §5 install validation)', () => {
  it('starts with the api key, visitor id and account id it runs with; a right install has nothing to fix', () => {
    const found = installFindings(facts());
    expect(found.slice(0, 3).map((f) => f.message)).toEqual(['api key: app-1', 'visitor id: user-42', 'account id: acme']);
    expect(found.at(-1)).toEqual({ level: 'ok', message: 'the install looks right' });
    expect(reportOf('install', found).ok).toBe(true);
  });

  it('missing api key is an error, with the agent\'s own message', () => {
    const found = installFindings(facts({ apiKey: '  ', running: false }));
    expect(found.find((f) => f.level === 'error')).toMatchObject({ message: MESSAGES.apiKeyMissing, advice: expect.stringContaining('apiKey') });
    expect(reportOf('install', found).ok).toBe(false);
    expect(messages(facts({ initializeCalled: false }))).toContain('error: waymark.initialize() has not been called on this page');
  });

  it('warns about an anonymous visitor, example ids, no account, disabled cookies and missing metadata, each with what to do', () => {
    const anonymous = installFindings(facts({ visitorId: '_WM_abcdefghij', metadata: { visitor: { id: '_WM_abcdefghij' } } }));
    expect(anonymous.map((f) => f.message)).toEqual(expect.arrayContaining(['the visitor is anonymous (_WM_abcdefghij)', 'the visitor has no metadata besides its id']));
    expect(messages(facts({ visitorId: 'VISITOR-UNIQUE-ID' }))).toContain('warn: the visitor id "VISITOR-UNIQUE-ID" is an example or a missing value');
    expect(messages(facts({ accountId: 'ACCOUNT-UNIQUE-ID' }))).toContain('warn: the account id "ACCOUNT-UNIQUE-ID" is an example or a missing value');
    expect(messages(facts({ accountId: '' }))).toContain('warn: no account is set');
    expect(messages(facts({ cookiesEnabled: false }))).toContain('warn: cookies are disabled in this browser');
    // Said to be intended: no warning.
    expect(messages(facts({ cookiesEnabled: false, localStorageOnly: true }))).not.toContain('warn: cookies are disabled in this browser');
    for (const found of [anonymous, installFindings(facts({ accountId: '' }))]) for (const f of found.filter((x) => x.level === 'warn')) expect(f.advice).toBeTruthy();
    expect(['undefined', 'null', 'your-user-id', 'user@example.com'].every(isExampleId)).toBe(true);
    expect(isExampleId('u-1001')).toBe(false);
  });

  it('warns about keys that differ only in case and object or array-of-object values (ignored)', () => {
    const found = messages(facts({ metadata: { visitor: { id: 'v', Email: 'a', email: 'b', address: { city: 'x' }, tags: ['a', 'b'], teams: [{ id: 1 }], signedUp: new Date(0) }, account: { Plan: 1, plan: 2 } } }));
    expect(found).toEqual(expect.arrayContaining([
      'warn: visitor metadata has keys that differ only in case: Email, email',
      'warn: account metadata has keys that differ only in case: Plan, plan',
      'warn: visitor.address is an object: ignored',
      'warn: visitor.teams is an array of objects: ignored',
    ]));
    // A list of plain values and a date are fine.
    expect(found.some((m) => m.includes('visitor.tags') || m.includes('visitor.signedUp'))).toBe(false);
  });
});

describe('issue #17 validateUrl', () => {
  it('names query keys that carry secrets or people, with the transform that removes them', () => {
    const found = urlFindings('https://app.example/projects/123456/settings?tab=2&token=abc&email=a%40b.co#/x', { hasUrlTransforms: false });
    expect(found[0]).toEqual({ level: 'info', message: 'the agent sends: https://app.example/projects/123456/settings?tab=2&token=abc&email=a%40b.co#/x' });
    const secret = found.find((f) => f.message.startsWith('its query has'))!;
    expect(secret).toMatchObject({ level: 'warn', message: 'its query has "token", "email", which usually carry a secret or a person' });
    expect(secret.advice).toContain("action: 'ExcludeKeys', data: ['token', 'email']");
    expect(found.map((f) => f.message)).toEqual(expect.arrayContaining(['it holds an email address', 'its path has ids (123456)', 'the app routes by its hash']));
    expect(urlFindings('https://app.example/?token=1', { hasUrlTransforms: true }).find((f) => f.level === 'warn')!.advice).toContain('Check that your urlTransforms remove them');
  });

  it('an address that is not http(s), or not one at all, or too long', () => {
    expect(urlFindings('file:///tmp/a.html', { hasUrlTransforms: false }).map((f) => f.message)).toContain('it is a file: address');
    expect(urlFindings('not a url', { hasUrlTransforms: false }).at(-1)).toMatchObject({ level: 'error', message: 'it is not an absolute URL' });
    const long = `https://app.example/?q=${'x'.repeat(1200)}`;
    expect(urlFindings(long, { hasUrlTransforms: false }).at(-1)).toMatchObject({ level: 'warn', message: `it is ${long.length} characters long` });
  });
});
