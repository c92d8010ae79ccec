/**
 * The browser's languages as Intl takes them. WebKitGTK (2.50) under a C or POSIX locale (`LANG=C.UTF-8`, Debian's
 * default in containers and minimal installs) reports `navigator.language` 'C', a tag every Intl constructor
 * refuses ("invalid language tag: C"). uPlot builds `new Intl.NumberFormat(navigator.language)` as its module
 * loads, so each console view with a chart (overview, guide, health) failed there with that error (issue #32).
 */

/** The language a browser whose own is no BCP 47 tag reads as: the one uPlot takes without a DOM. */
export const FALLBACK_LANGUAGE = 'en-US';

function isLanguageTag(tag: unknown): tag is string {
  try {
    return typeof tag === 'string' && Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * Where `nav.language` is no language tag, shadows `language` and `languages` on `nav` with the tags Intl takes
 * (FALLBACK_LANGUAGE when none is left); answers whether it did. Call before anything reads them: uPlot's module
 * is loaded with the views that draw, after the console's entry has run.
 */
export function repairNavigatorLanguage(nav: Navigator = navigator): boolean {
  if (isLanguageTag(nav.language)) return false;
  const languages = (nav.languages ?? []).filter(isLanguageTag);
  const usable = languages.length ? languages : [FALLBACK_LANGUAGE];
  Object.defineProperty(nav, 'language', { configurable: true, get: () => usable[0] });
  Object.defineProperty(nav, 'languages', { configurable: true, get: () => usable.slice() });
  return true;
}
