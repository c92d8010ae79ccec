import { RTL_LANGUAGES } from '../constants';

/**
 * True for a right-to-left language (guides §2: he and ar), from a language tag in any of the spellings a
 * page or a browser uses ('he', 'he-IL', 'ar_EG', 'AR').
 */
export function isRtlLanguage(tag: string | null | undefined): boolean {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0]!;
  return (RTL_LANGUAGES as readonly string[]).includes(primary);
}
