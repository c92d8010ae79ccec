/**
 * The privacy filter (spec: analytics §5 Config "the privacy filter must be valid", §5 "Privacy filter
 * replaces matches with 'redacted'", §8 'Invalid privacy filter for agent').
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/messages';
import { checkPrivacyFilter, compilePrivacyFilter, REDACTED, redact } from '../../shared/privacy/privacyFilter';

const EMAIL = /[\w.+-]+@[\w-]+\.[\w.]+/;

describe('analytics §5 privacy filter: configuration', () => {
  it('accepts a RegExp, a pattern string, and an array of those', () => {
    expect(checkPrivacyFilter(EMAIL)).toBeNull();
    expect(checkPrivacyFilter('\\d{4}-\\d{4}')).toBeNull();
    expect(checkPrivacyFilter([EMAIL, 'secret'])).toBeNull();
    expect(checkPrivacyFilter([])).toBeNull();
  });

  it("refuses anything else with 'Invalid privacy filter for agent'", () => {
    expect(MESSAGES.invalidPrivacyFilter).toBe('Invalid privacy filter for agent');
    for (const filter of [undefined, null, 42, {}, { source: 'a', flags: 'g' }, () => /a/, [/a/, 1], [['a']], '(unclosed', '[z-a]']) {
      expect(checkPrivacyFilter(filter), String(filter)).toBe(MESSAGES.invalidPrivacyFilter);
      expect(compilePrivacyFilter(filter)).toBeNull();
    }
  });

  it('refuses patterns that match the empty string, which would write redacted between every character', () => {
    for (const filter of ['', /a*/, 'x|', /^/m, /\b/, /(?=a)/, [/ok/, /(?:)/]]) {
      expect(checkPrivacyFilter(filter), String(filter)).toBe(MESSAGES.invalidPrivacyFilter);
    }
  });

  it('compiles to fresh global RegExps, keeping the other flags', () => {
    const host = /Secret/iu;
    const [fromRegExp, fromString, alreadyGlobal] = compilePrivacyFilter([host, 'tok\\w+', /x/gm])!;
    expect(fromRegExp.flags).toBe('giu');
    expect(fromRegExp.source).toBe('Secret');
    expect(fromRegExp).not.toBe(host);
    expect(host.flags).toBe('iu');
    expect(fromString.flags).toBe('g');
    expect(fromString.source).toBe('tok\\w+');
    expect(alreadyGlobal.flags).toBe('gm');
  });

  it('compiles to RegExps that survive structured cloning, so the worker can hold them', () => {
    const cloned = structuredClone(compilePrivacyFilter([EMAIL, 'pin\\d+'])!);
    expect(redact('a@b.io pin42', cloned)).toBe('redacted redacted');
  });
});

describe("analytics §5 privacy filter: matches become 'redacted'", () => {
  it('replaces every match of a RegExp, even one configured without g', () => {
    const filters = compilePrivacyFilter(EMAIL)!;
    expect(redact('mail a@b.io and c.d@e.org now', filters)).toBe('mail redacted and redacted now');
    expect(REDACTED).toBe('redacted');
  });

  it('compiles a string as a regular expression, not as literal text', () => {
    expect(redact('card 1234-5678, ref 9999', compilePrivacyFilter('\\d{4}-\\d{4}')!)).toBe('card redacted, ref 9999');
    expect(redact('a.c abc', compilePrivacyFilter('a.c')!)).toBe('redacted redacted');
  });

  it('keeps flags: case-insensitive matching stays case-insensitive', () => {
    expect(redact('SECRET secret Secret', compilePrivacyFilter(/secret/i)!)).toBe('redacted redacted redacted');
    expect(redact('SECRET secret', compilePrivacyFilter('secret')!)).toBe('SECRET redacted');
  });

  it('applies every filter of an array, in order', () => {
    const filters = compilePrivacyFilter([EMAIL, /\b\d{3}-\d{2}-\d{4}\b/])!;
    expect(redact('a@b.io 123-45-6789', filters)).toBe('redacted redacted');
  });

  it('redacts strings at any depth, leaving keys and non-strings alone', () => {
    const filters = compilePrivacyFilter(EMAIL)!;
    const when = new Date(0);
    const input = {
      'a@b.io': 'to a@b.io',
      n: 1,
      ok: true,
      none: null,
      when,
      list: ['x@y.io', 2, { deep: ['z@w.io'] }],
    };
    expect(redact(input, filters)).toEqual({
      'a@b.io': 'to redacted',
      n: 1,
      ok: true,
      none: null,
      when,
      list: ['redacted', 2, { deep: ['redacted'] }],
    });
    expect((redact(input, filters) as typeof input).when).toBe(when);
  });

  it('never mutates the input', () => {
    const filters = compilePrivacyFilter(EMAIL)!;
    const input = { user: { email: 'a@b.io' }, tags: ['c@d.io'] };
    const snapshot = structuredClone(input);
    const out = redact(input, filters) as typeof input;
    expect(input).toEqual(snapshot);
    expect(out.user).not.toBe(input.user);
    expect(out.tags).not.toBe(input.tags);
  });

  it('returns the same value, uncopied, when there is no filter', () => {
    const input = { email: 'a@b.io' };
    expect(redact(input, [])).toBe(input);
    expect(redact(input, compilePrivacyFilter([])!)).toBe(input);
  });

  it('copies cyclic and shared references once, keeping their shape', () => {
    const filters = compilePrivacyFilter(EMAIL)!;
    const shared = { e: 'a@b.io' };
    const input: Record<string, unknown> = { one: shared, two: shared };
    input.self = input;
    const out = redact(input, filters) as Record<string, unknown>;
    expect(out.self).toBe(out);
    expect(out.one).toBe(out.two);
    expect(out.one).toEqual({ e: 'redacted' });
  });

  it('keeps an own __proto__ key as a key', () => {
    const input = JSON.parse('{"__proto__": "a@b.io"}') as Record<string, unknown>;
    const out = redact(input, compilePrivacyFilter(EMAIL)!) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('redacted');
  });

  it('leaves zero-width matches alone when a pattern can match empty somewhere the check did not probe', () => {
    // `(?=QQ)` matches nothing in the probe text, so it passes the check, yet it is zero-width at runtime.
    const filters = compilePrivacyFilter('pin\\d+|(?=QQ)')!;
    expect(filters).not.toBeNull();
    expect(redact('QQ pin12', filters)).toBe('QQ redacted');
  });
});
