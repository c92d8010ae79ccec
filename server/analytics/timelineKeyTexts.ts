/**
 * The timelines' copy (timelineCopySql.ts) holds an element's and an address's key, not its text; a walk reads a
 * step from the text (createStepReader matches selectors and URL rules on it). This reads each key's text from the
 * dictionaries the drain keeps beside the copy (analytics_elements, analytics_addresses: rollupsSql.ts) once per
 * question, and gives a row of the copy as the event every other read of paths gives (timelineRows.ts), so the same
 * event reads as the same step whichever table it came from.
 * A question walks hundreds of thousands of rows: no object is made per row here (source answers one scratch object).
 */
import type { Database } from '../storage/Database';
import type { StepSource } from './createStepReader';

/** A row of the copy as the walks read it (COPY_COLUMNS); pg answers bigint as text, PGlite as a number. */
export interface CopyRow {
  time: number | string;
  id: number | string;
  type: string;
  session: string | null;
  element_key: string | null;
  address_key: string | null;
  track: string | null;
}

/** The select list over analytics_timeline that makes a CopyRow (the walk knows its visitor). */
export const COPY_COLUMNS = 'time, id, type, session_id as session, element_key, address_key, name as track';

/** The texts of the copy's keys. */
export interface KeyTexts {
  /** Reads the texts of the keys of `rows` not read yet. */
  learn(rows: readonly CopyRow[]): Promise<void>;
  /** A learned row as readStep reads an event: the same object at every call, to be read before the next. */
  source(row: CopyRow): StepSource;
}

const READ = {
  element: 'select key, target::text as text from analytics_elements where api_key = $1 and key = any($2::text[])',
  address: 'select key, url as text from analytics_addresses where api_key = $1 and key = any($2::text[])',
} as const;

/** Texts of `apiKey`'s keys, each read once however many rows carry it. */
export function createKeyTexts(db: Database, apiKey: string): KeyTexts {
  const known = { element: new Map<string, string | null>(), address: new Map<string, string | null>() };
  // The reads under way, by key: a question reads both ways at once, and a chunk whose keys the other way is
  // reading must wait for those texts, not find no text.
  const reading = { element: new Map<string, Promise<void>>(), address: new Map<string, Promise<void>>() };
  const read = async (kind: keyof typeof known, keys: string[]) => {
    const { rows } = await db.query<{ key: string; text: string }>(READ[kind], [apiKey, keys]);
    for (const row of rows) known[kind].set(row.key, row.text);
    // A key the dictionary lacks (none should) reads as no text, once.
    for (const key of keys) {
      if (!known[kind].has(key)) known[kind].set(key, null);
      reading[kind].delete(key);
    }
  };
  // A plain loop over the rows' column, no generator: a question at 10M events learns from about 190,000 rows.
  const learnKind = (kind: keyof typeof known, rows: readonly CopyRow[], column: 'element_key' | 'address_key', waits: Set<Promise<void>>) => {
    const unknown = new Set<string>();
    for (const row of rows) {
      const key = row[column];
      if (key === null || known[kind].has(key)) continue;
      const under = reading[kind].get(key);
      if (under) waits.add(under);
      else unknown.add(key);
    }
    if (!unknown.size) return;
    const keysRead = [...unknown];
    const done = read(kind, keysRead);
    for (const key of keysRead) reading[kind].set(key, done);
    waits.add(done);
  };
  const scratch: StepSource = { type: '', url: null, target: null, track: null };
  return {
    async learn(rows) {
      const waits = new Set<Promise<void>>();
      learnKind('element', rows, 'element_key', waits);
      learnKind('address', rows, 'address_key', waits);
      await Promise.all(waits);
    },
    source(row) {
      scratch.type = row.type;
      scratch.track = row.track;
      scratch.target = row.element_key === null ? null : (known.element.get(row.element_key) ?? null);
      scratch.url = row.address_key === null ? null : (known.address.get(row.address_key) ?? null);
      return scratch;
    },
  };
}
