/**
 * Text the database cannot keep as sent: PostgreSQL's text and jsonb refuse U+0000, and jsonb refuses a lone
 * surrogate (JSON.stringify writes it as `\udxxx`, which is no Unicode character); as a text parameter it would
 * silently become U+FFFD. Checked before any query, so the refusal is a 400 naming the field, never a database
 * error.
 */
import { HttpError } from '../HttpError';

/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a string, in words for a message (`holds U+0000 (NUL)`), or undefined when nothing is. */
export function textFault(text: string): string | undefined {
  if (text.includes('\u0000')) return 'holds U+0000 (NUL)';
  if (LONE_SURROGATE.test(text)) return 'holds a lone surrogate (not valid Unicode)';
  return undefined;
}

/** The text itself, or a 400 naming `field` (`visitorId holds U+0000 (NUL), which cannot be stored`). */
export function storableText(text: string, field: string): string {
  const fault = textFault(text);
  if (fault) throw new HttpError(400, `${field} ${fault}, which cannot be stored`, field);
  return text;
}
