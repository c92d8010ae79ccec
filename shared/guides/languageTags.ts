/** Language tags as guides carry them (issue #17 localization): `fr`, `pt-BR`, `pt_BR` read the same. Pure. */

/** A language tag as compared: lower case, `-` between subtags (`fr_FR` -> `fr-fr`). */
export function normalizeLanguage(tag: string): string {
  return tag.trim().replace(/_/g, '-').toLowerCase();
}

const TAG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/;

/** Whether `tag` reads as a language tag (`fr`, `pt-BR`, `zh-Hant-TW`). */
export function isLanguageTag(tag: unknown): tag is string {
  return typeof tag === 'string' && TAG.test(normalizeLanguage(tag));
}
