/**
 * issue #32: the console in WebKitGTK under a C locale, whose navigator.language 'C' no Intl constructor takes
 * (uPlot's module threw "invalid language tag: C" and the views with a chart failed to load).
 */
import { describe, expect, it } from 'vitest';
import { FALLBACK_LANGUAGE, repairNavigatorLanguage } from '../../console/repairNavigatorLanguage';

/** A navigator as the browser makes it: language and languages are getters of its prototype. */
function navigatorSaying(language: string, languages: string[]): Navigator {
  const proto = { get language() { return language; }, get languages() { return Object.freeze(languages.slice()); } };
  return Object.create(proto) as Navigator;
}

describe('repairNavigatorLanguage (issue #32, WebKitGTK under LANG=C.UTF-8)', () => {
  it("reads 'C' as en-US, so uPlot's Intl.NumberFormat(navigator.language) loads", () => {
    const nav = navigatorSaying('C', ['C']);
    expect(() => new Intl.NumberFormat(nav.language)).toThrow(RangeError);
    expect(repairNavigatorLanguage(nav)).toBe(true);
    expect(nav.language).toBe(FALLBACK_LANGUAGE);
    expect(nav.languages).toEqual([FALLBACK_LANGUAGE]);
    expect(() => new Intl.NumberFormat(nav.language)).not.toThrow();
  });

  it('keeps the usable tags of languages, the first of them as the language', () => {
    const nav = navigatorSaying('C', ['C', 'de-DE', 'c', 'fr']);
    expect(repairNavigatorLanguage(nav)).toBe(true);
    expect([nav.language, nav.languages]).toEqual(['de-DE', ['de-DE', 'fr']]);
  });

  it('leaves a browser that says a language tag as it is', () => {
    const nav = navigatorSaying('fr-CA', ['fr-CA', 'en']);
    expect(repairNavigatorLanguage(nav)).toBe(false);
    expect([nav.language, nav.languages]).toEqual(['fr-CA', ['fr-CA', 'en']]);
    expect(Object.getOwnPropertyNames(nav)).toEqual([]);
  });
});
