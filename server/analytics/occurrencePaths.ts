/**
 * Paths from the start's own events (issue #35 "Fast at real volumes"): for each event that reads as the start
 * (pathStartEvents), the events of its visitor just before it and just after it, read in chunks until its walk
 * (createOccurrenceWalk) knows whether it begins an occurrence and what its path is. A question then reads about
 * (occurrences x a few events) rows however many events its span and its visitors hold.
 *
 * Each chunk is one statement for up to OCCURRENCE_BATCH walks: a LATERAL per walk over the events of its visitor
 * after (before) the walk's cursor in (time, id) order, `limit` its chunk size, read from the timelines' copy
 * (timelineCopySql.ts, migration 25), so a chunk costs one index-only range per walk; the copy's element and
 * address keys become texts again (timelineKeyTexts.ts) before the walk reads the rows as steps.
 * A walk's first chunk is sized for a usual path (firstChunk); each further one doubles, up to MAX_CHUNK; the two
 * ways are read at once. The span
 * is the timeline's, [from - PATH_MARGIN_MS, to + PATH_MARGIN_MS) (pathsQuery): a walk stops at its edges as the
 * timeline does, so the answer is the one pathsOf gives over the whole timeline, exactly.
 */
import type { BudgetSpan, RowBudget } from './createRowBudget';
import { createOccurrenceWalk, type OccurrenceWalk, type WalkCursor, type WalkEvent } from './createOccurrenceWalk';
import type { StepReader } from './createStepReader';
import type { PathWalk, VisitorPath } from './foldPaths';
import type { StartRow } from './pathStartEvents';
import type { CopyRow, KeyTexts } from './timelineKeyTexts';
import { COPY_COLUMNS } from './timelineKeyTexts';

/** Walks one statement reads for: bounds its parameters and the rows it holds. */
export const OCCURRENCE_BATCH = 5_000;
/** The most events one walk reads in one chunk. */
export const MAX_CHUNK = 256;
/**
 * A first chunk's events: per step of depth, and (back, for `next`) to find the step before. Sized on the bench's
 * events (bench/RESULTS.md): read whole, about a third of a timeline's events are steps (larger first chunks, 8 back
 * and 5 per step, saved a round for a quarter of the walks but read a third more rows, which the row bound counts);
 * with the clicks of no step left out, most rows read are steps, and 1 per step and 2 back read the fewest rows in
 * the least time: at 10M events 138,000 rows and 1.14-1.28 s in process, against 187,000 and 1.31-1.64 s with 2
 * and 2 (a round more for the walks that need it; Node's handling of each row read costs more than a statement),
 * and against 141,000 rows in 15 statements with 1 and 1.
 */
const FIRST_CHUNK = { whole: { perStep: 3, back: 4 }, steps: { perStep: 1, back: 2 } } as const;

/** A first chunk's size: a usual path's steps with the events between them, or (back, `next`) the step before. */
function firstChunk(way: WalkCursor['way'], walk: Pick<PathWalk, 'direction' | 'depth'>, stepsOnly: boolean): number {
  const { perStep, back } = FIRST_CHUNK[stepsOnly ? 'steps' : 'whole'];
  return way === 'back' && walk.direction === 'next' ? back : perStep * walk.depth + back;
}

// $1 api key, $2 from, $3 to, $4 limit (createRowBudget); $5 visitors, $6 times, $7 ids, $8 chunk sizes: a walk's
// cursor each; $9 the element keys a click may read as a step by (null: every click is read). Read from the
// timelines' copy (timelineCopySql.ts): each LATERAL is one range of its primary key, which carries every column
// read (an index-only scan); `n` says whose rows they are.
// A click of no step is left out when it can change nothing: the walk reads it only to see whether the session goes
// on (createOccurrenceWalk), and a row whose session id is the one of the rows on both sides of it (not null) is
// the same session either way. `before` and `after` are its neighbours in the visitor's timeline within the range
// read (the cursor's own row is not: the first row after it is always kept).
const AROUND = (way: WalkCursor['way']) => {
  const order = way === 'forward' ? 'time, id' : 'time desc, id desc';
  return `
select c.n::int as n, e.* from unnest($5::text[], $6::bigint[], $7::bigint[], $8::int[]) with ordinality as c(at_visitor, at_time, at_id, size, n)
cross join lateral (
  select ${COPY_COLUMNS} from (
    select t.*, lag(session_id) over w as before, lead(session_id) over w as after from analytics_timeline t
    where api_key = $1 and visitor_id = c.at_visitor and time >= $2 and time < $3
      and (time, id) ${way === 'forward' ? '>' : '<'} (c.at_time, c.at_id)
    window w as (order by ${order})
  ) w
  where $9::text[] is null or type <> 'click' or element_key = any($9::text[])
    or session_id is null or before is distinct from session_id or after is distinct from session_id
  order by ${order}
  limit c.size
) e
limit $4`;
};
const AROUND_SQL = { forward: AROUND('forward'), back: AROUND('back') } as const;

/** A walk with its visitor and the chunks it has read each way. */
interface Walker {
  visitor: string;
  walk: OccurrenceWalk;
  reads: Record<WalkCursor['way'], number>;
}

/**
 * Reads one chunk for each of `batch` still reading `way` and gives it to their walks. A walk may have stopped reading
 * `way` since its batch was cut: the other way's chunks, read at the same time, can settle it (a start that reads as a
 * repeat needs nothing after it), so whether a walk reads is decided here, as the chunk is asked for.
 */
async function readChunk(reading: Reading, span: BudgetSpan, way: WalkCursor['way'], batch: readonly Walker[], first: number): Promise<void> {
  const walkers = batch.filter(({ walk }) => walk.cursors().some((cursor) => cursor.way === way));
  if (!walkers.length) return;
  const cursors = walkers.map(({ walk }) => walk.cursors().find((cursor) => cursor.way === way)!);
  const sizes = walkers.map(({ reads }) => Math.min(MAX_CHUNK, first * 2 ** reads[way]));
  const copied = await reading.budget.read<CopyRow & { n: number | string }>(AROUND_SQL[way], span, [
    walkers.map((w) => w.visitor), cursors.map((c) => c.time), cursors.map((c) => c.id), sizes, reading.stepElements ?? null,
  ]);
  const { texts, readStep } = reading;
  await texts.learn(copied);
  const chunks = walkers.map((): WalkEvent[] => []);
  for (const row of copied) {
    chunks[Number(row.n) - 1]!.push({ time: Number(row.time), id: Number(row.id), sessionId: row.session, step: readStep(texts.source(row)) });
  }
  const sign = way === 'forward' ? 1 : -1;
  walkers.forEach((walker, i) => {
    // Nearest first: the statement's order within a LATERAL is not promised past the join.
    const events = chunks[i]!.sort((a, b) => sign * (a.time - b.time || a.id - b.id));
    walker.reads[way] += 1;
    walker.walk.take(way, events, events.length < sizes[i]!);
  });
}

/** How a question reads: its row budget, the texts of the copy's keys, its steps. */
export interface Reading {
  budget: RowBudget;
  texts: KeyTexts;
  readStep: StepReader;
  /**
   * The element keys a click may read as a step by (those of every feature: a superset, readStep decides), so the
   * walks skip the others where they cannot end a session; undefined reads every click.
   */
  stepElements?: readonly string[];
}

/** The paths of the start's events `starts` (any order; those that do not read as the start are left out). */
export async function occurrencePaths(reading: Reading, span: BudgetSpan, starts: readonly StartRow[], walk: PathWalk): Promise<VisitorPath[]> {
  const { readStep, texts } = reading;
  await texts.learn(starts);
  const walkers: Walker[] = [];
  for (const row of starts) {
    const step = readStep(texts.source(row));
    if (step?.key !== walk.startKey) continue;
    const event: WalkEvent = { time: Number(row.time), id: Number(row.id), sessionId: row.session, step };
    walkers.push({ visitor: row.visitor, walk: createOccurrenceWalk(event, walk), reads: { back: 0, forward: 0 } });
  }
  // Each round reads a chunk for every open walk, both ways at once (two statements on two connections).
  for (let open = walkers; open.length; open = open.filter(({ walk }) => walk.cursors().length)) {
    await Promise.all((['back', 'forward'] as const).map(async (way) => {
      const wayOpen = open.filter(({ walk }) => walk.cursors().some((cursor) => cursor.way === way));
      for (let i = 0; i < wayOpen.length; i += OCCURRENCE_BATCH) {
        await readChunk(reading, span, way, wayOpen.slice(i, i + OCCURRENCE_BATCH), firstChunk(way, walk, reading.stepElements !== undefined));
      }
    }));
  }
  const paths: VisitorPath[] = [];
  for (const { visitor, walk } of walkers) {
    const steps = walk.path();
    if (steps) paths.push({ visitor, steps });
  }
  return paths;
}
