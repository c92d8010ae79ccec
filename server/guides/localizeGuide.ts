/**
 * Guides in several languages (issue #17 localization; guides §3 Guide `language`, `authoredLanguage`,
 * `translationStates`). A stored guide is written in its `authoredLanguage` (default `en`) and may carry
 * `translations` (the reference server's field): `{ "fr": { "name": "...", "steps": { "<stepId>": { "domJson":
 * {...} } } } }`. guide.json serves each guide in the visitor's language: the visitor metadata's `language`
 * (`fr_FR` or `fr-FR`), else the browser's (the request's Accept-Language), matched exactly then by its primary
 * subtag (`fr-CA` finds `fr`), else the authored language. A step not translated keeps its authored content.
 * The served guide says its `language`, its `authoredLanguage` and its `translationStates` (per language, per
 * step, a hash of the translated content: what the agent's content cache keys by), and never carries the
 * translations themselves. A guide with no language of its own and no translations goes out as it is.
 */
import { createHash } from 'node:crypto';
import type { DomNode, Guide } from '../../shared/guides/guides';
import { normalizeLanguage } from '../../shared/guides/languageTags';

export interface GuideTranslation {
  name?: string;
  steps: Record<string, { domJson: DomNode }>;
}

/** The default authored language of a guide that names none. */
export const DEFAULT_LANGUAGE = 'en';


export function translationsOf(guide: Guide): Record<string, GuideTranslation> {
  const t = (guide as { translations?: unknown }).translations;
  return typeof t === 'object' && t !== null && !Array.isArray(t) ? (t as Record<string, GuideTranslation>) : {};
}

/** The languages a guide can be served in, the authored one first. */
export function languagesOf(guide: Guide): string[] {
  const authored = guide.authoredLanguage ?? DEFAULT_LANGUAGE;
  return [authored, ...Object.keys(translationsOf(guide)).filter((l) => normalizeLanguage(l) !== normalizeLanguage(authored))];
}

/** The languages a visitor asks for, in order: the metadata's, then the browser's by preference. */
export function wantedLanguages(metadataLanguage: unknown, acceptLanguage: string | undefined): string[] {
  const wanted: string[] = [];
  if (typeof metadataLanguage === 'string' && metadataLanguage.trim()) wanted.push(metadataLanguage);
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? '1');
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const l of ranked) wanted.push(l.tag);
  return wanted;
}

/** The language of `guide` to serve for `wanted`: exact first, then by primary subtag, else the authored one. */
export function chooseLanguage(guide: Guide, wanted: readonly string[]): string {
  const available = languagesOf(guide);
  const byTag = new Map(available.map((l) => [normalizeLanguage(l), l]));
  for (const w of wanted) {
    const exact = byTag.get(normalizeLanguage(w));
    if (exact) return exact;
    const primary = normalizeLanguage(w).split('-')[0]!;
    const near = available.find((l) => normalizeLanguage(l).split('-')[0] === primary);
    if (near) return near;
  }
  return available[0]!;
}

/**
 * The guide as served in `language`: its steps' translated content where there is some, without `translations`.
 * A guide that declares no language and has no translations is served as it is.
 */
export function localizeGuide(guide: Guide, language: string): Guide {
  const { translations: _all, ...rest } = guide as Guide & { translations?: unknown };
  const translations = translationsOf(guide);
  if (!Object.keys(translations).length && guide.authoredLanguage === undefined) return rest;
  const authored = guide.authoredLanguage ?? DEFAULT_LANGUAGE;
  const translation = normalizeLanguage(language) === normalizeLanguage(authored) ? undefined : translations[language];
  const translationStates: Record<string, Record<string, string>> = {};
  for (const [lang, t] of Object.entries(translations)) {
    translationStates[lang] = Object.fromEntries(Object.entries(t.steps ?? {}).map(([stepId, s]) => [stepId, hashOf(s.domJson)]));
  }
  return {
    ...rest,
    ...(translation?.name ? { name: translation.name } : {}),
    language,
    authoredLanguage: authored,
    ...(Object.keys(translationStates).length ? { translationStates } : {}),
    steps: guide.steps.map((step) => {
      const domJson = translation?.steps?.[step.id]?.domJson;
      return domJson ? { ...step, domJson } : step;
    }),
  };
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value ?? null)).digest('hex').slice(0, 16);
}
