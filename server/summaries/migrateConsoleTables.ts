/**
 * Brings a database up to the console's schema: runs CONSOLE_SCHEMA, fills the extracted columns of rows stored
 * before they existed, and builds the summary tables from the stored events once. A start interrupted half-way
 * starts the summaries over at the next start (the marker is written last), so nothing is counted twice.
 */
import type { Database } from '../storage/Database';
import { CONSOLE_SCHEMA, SUMMARY_TABLES } from './CONSOLE_SCHEMA';
import { EXTRACTED_COLUMN_NAMES, extractedColumns } from './extractedColumns';
import { summarizeEventsSql } from './summarizeEventsSql';

/** Rows per backfill statement: bounds the memory one statement needs on PGlite. */
const BACKFILL_SLICE = 50_000;

/** The marker in `console_state` saying the summaries hold every stored event. */
// v2: guide summaries added; a database summarised as v1 is summarised again from its events.
const SUMMARIES_MARKER = 'summaries-v2';

/** Runs after the events table exists; safe on every start. */
export async function migrateConsoleTables(db: Database): Promise<void> {
  await db.exec(CONSOLE_SCHEMA);
  const marker = await db.query('select 1 from console_state where key = $1', [SUMMARIES_MARKER]);
  if (marker.rows.length > 0) return;

  const bounds = await db.query<{ lo: unknown; hi: unknown }>('select min(id) as lo, max(id) as hi from events');
  const lo = Number(bounds.rows[0]?.lo ?? 0);
  const hi = Number(bounds.rows[0]?.hi ?? 0);

  const set = EXTRACTED_COLUMN_NAMES.map(
    (name, i) => `${name} = ${extractedColumns('body', 'kind', 'browser_time', 'received_at')[i]}`,
  ).join(', ');
  await db.exec(`delete from ${SUMMARY_TABLES.join('; delete from ')};`);
  // Bounded: one pass over the ids that existed when the migration began.
  for (let from = lo - 1; hi > 0 && from < hi; from += BACKFILL_SLICE) {
    const to = Math.min(from + BACKFILL_SLICE, hi);
    await db.query(`update events set ${set} where id > $1 and id <= $2 and time is null`, [from, to]);
    await db.query(
      `with slice as (select * from events where id > $1 and id <= $2)${summarizeEventsSql('slice')}
       select count(*) as n from slice`,
      [from, to],
    );
  }
  await db.query('insert into console_state (key, value) values ($1, $2) on conflict (key) do nothing', [
    SUMMARIES_MARKER,
    String(hi),
  ]);
}
