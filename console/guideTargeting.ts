/**
 * A guide's targeting in words for the console's guide page (issues #15, #17, #35): who it is for (its `audience`,
 * judged by the collector: conditions, and a segment) and the languages it is written in (`authoredLanguage` and its
 * `translations`).
 */
import { conditionInWords } from './segmentWords';
import type { GuideBody } from './types';

/** "visitor.role is admin and accountId starts with acme", or null for everyone. */
export function audienceInWords(guide: GuideBody): string | null {
  const when = (guide.audience as { when?: Record<string, unknown> } | undefined)?.when;
  const entries = when && typeof when === 'object' ? Object.entries(when) : [];
  if (!entries.length) return null;
  return entries.map(([path, condition]) => conditionInWords(path, condition)).join(' and ');
}

/** The segment a guide's audience names, or undefined. */
export function audienceSegment(guide: GuideBody): string | undefined {
  const segment = (guide.audience as { segment?: unknown } | undefined)?.segment;
  return typeof segment === 'string' ? segment : undefined;
}

/**
 * Who the guide is for, in a sentence: "for every visitor", "for visitors of account acme where visitor.role is
 * admin", "for visitors in segment Pro exporters"; `segmentName` names a segment by id (its id when unknown).
 */
export function audienceSentence(guide: GuideBody, segmentName: (id: string) => string | undefined = () => undefined): string {
  const words = audienceInWords(guide);
  const segment = audienceSegment(guide);
  const target = guide.targetAccount;
  const accounts = target === undefined || target === null || target === '' ? [] : (Array.isArray(target) ? target : [target]).map(String);
  const ofAccounts = accounts.length ? ` of account${accounts.length === 1 ? '' : 's'} ${accounts.join(', ')}` : '';
  const inSegment = segment === undefined ? '' : ` in segment ${segmentName(segment) ?? segment}`;
  if (words) return `for visitors${inSegment}${ofAccounts} where ${words}`;
  return inSegment || ofAccounts ? `for visitors${inSegment}${ofAccounts}` : 'for every visitor';
}

/** The guide's languages, the authored one first; [] when it declares none and has no translations. */
export function languagesOfGuide(guide: GuideBody): string[] {
  const translations = guide.translations && typeof guide.translations === 'object' ? Object.keys(guide.translations) : [];
  const authored = typeof guide.authoredLanguage === 'string' ? guide.authoredLanguage : translations.length ? 'en' : null;
  return authored ? [authored, ...translations.filter((l) => l !== authored)] : [];
}
