/**
 * The timelines' copy (timelineCopySql.ts) holds an element's and an address's key, not its text; a walk reads a
 * step from the text (createStepReader matches selectors and URL rules on it). This reads each key's text from the
 * dictionaries the drain keeps beside the copy (analytics_elements, analytics_addresses: rollupsSql.ts) once per
 * question, and gives the copy's rows back as the rows every other read of paths gives (timelineRows.ts), so the
 * same event reads as the same step whichever table it came from.
 */
import type { Database } from '../storage/Database';
import type { TimelineRow } from './timelineRows';

/** A row of the copy as the walks read it; pg answers bigint as text, PGlite as a number. */
export interface CopyRow {
  visitor: string;
  time: number | string;
  id: number | string;
  type: string;
  session: string | null;
  element_key: string | null;
  address_key: string | null;
  track: string | null;
}

/** The select list over analytics_timeline that makes a CopyRow. */
export const COPY_COLUMNS = 'visitor_id as visitor, time, id, type, session_id as session, element_key, address_key, name as track';

/** Gives the copy's rows their elements' and addresses' texts. */
export type KeyTexts = (rows: readonly CopyRow[]) => Promise<TimelineRow[]>;

const READ = {
  element: 'select key, target::text as text from analytics_elements where api_key = $1 and key = any($2::text[])',
  address: 'select key, url as text from analytics_addresses where api_key = $1 and key = any($2::text[])',
} as const;

/** Texts of `apiKey`'s keys, each read once however many rows carry it. */
export function createKeyTexts(db: Database, apiKey: string): KeyTexts {
  const known = { element: new Map<string, string>(), address: new Map<string, string>() };
  const learn = async (kind: keyof typeof known, keys: Iterable<string | null>) => {
    const unknown = [...new Set([...keys].filter((key): key is string => key !== null && !known[kind].has(key)))];
    if (!unknown.length) return;
    const { rows } = await db.query<{ key: string; text: string }>(READ[kind], [apiKey, unknown]);
    for (const row of rows) known[kind].set(row.key, row.text);
  };
  return async (rows) => {
    await Promise.all([learn('element', rows.map((r) => r.element_key)), learn('address', rows.map((r) => r.address_key))]);
    return rows.map(({ element_key, address_key, ...row }) => ({
      ...row,
      target: element_key === null ? null : (known.element.get(element_key) ?? null),
      url: address_key === null ? null : (known.address.get(address_key) ?? null),
    }));
  };
}
