/**
 * A funnel's answer (issue #35 "Funnels", `POST /api/apps/{apiKey}/funnels`): visitors (or accounts) per step,
 * conversion from the previous step and from step 1, the median time from the previous step, who dropped at each
 * step, and the same counts per value of a metadata field. Exact, over the stored events:
 * 1. funnelSteps resolves each step to the events it counts (the keys of its elements and addresses, a track name, a
 *    guide's step and event types);
 * 2. one SQL statement walks each unit's steps (a visitor id, or an account id: the account's visitors' events merged
 *    into one timeline) as funnelWalk.ts defines it: the earliest step-1 occurrence in [from, to), then each step's
 *    earliest occurrence after the previous step's, within `windowMs` of the entry; it answers only the occurrences
 *    matched, at most one per unit and step;
 * 3. Node counts them.
 * Events without a visitor id (by visitor) or an account id (by account) are not counted. A breakdown reads the
 * latest metadata the collector keeps for the unit (console_visitors.metadata, as the visitor page shows it; for
 * accounts console_accounts.metadata): the field's value as text (`->>`: numbers and booleans as written, objects
 * as JSON), cut to 200 characters; a unit without it is "(none)".
 *
 * Fast at real volumes (issue #35): step 1 resolves a backfilled rule from its rule keys, and each step's SQL
 * (stepWhere) is answered by an index of its kind of step (STEP_INDEXES.ts: element key, address key or track name,
 * then time), so a funnel reads its steps' events of the span and no others, and the database, not Node, walks them.
 */
import { HttpError } from '../HttpError';
import type { Database } from '../storage/Database';
import type { FunnelAnswer, FunnelBreakdownValue, FunnelStepAnswer } from '../../shared/api/funnels';
import type { FunnelQuestion, FunnelUnit } from './funnelBody';
import { NAME_CHARACTERS } from '../summaries/extractedColumns';
import { ADDRESS_KEY, ELEMENT_KEY } from './STEP_INDEXES';
import { resolveSteps, type StepFilter, type StepSources } from './funnelSteps';
import { countFunnel, droppedIds, groupByValue, type FunnelStepCounts, type Reached } from './funnelWalk';

/** Steps reached one funnel answers (units x their steps reached, the rows of 2. above); more is a 400 naming `to`. */
export const MAX_REACHED = 500_000;
/** The longest breakdown value kept, in characters. */
const MAX_VALUE_LENGTH = 200;

export type { FunnelAnswer, FunnelBreakdownValue, FunnelStepAnswer };

/**
 * SQL of one step's events (after `api_key = $1`; unqualified columns of events), adding its parameters to `params`;
 * null when it counts none. Retention reads its steps with it too.
 */
export function stepWhere(filter: StepFilter, params: unknown[]): string | null {
  const p = (value: unknown) => `$${params.push(value)}`;
  switch (filter.type) {
    case 'click': {
      if (filter.keys.length === 0 || filter.addressKeys?.length === 0) return null;
      // The key expressions and the predicate as STEP_INDEXES writes them, and the keys as an array (`= any`), so
      // its indexes answer with the keys in the index condition (an `in (select ...)` became a hash join over a scan).
      const where = `kind = 'analytics' and type = 'click' and ${ELEMENT_KEY} = any(${p(filter.keys)}::text[])`;
      return filter.addressKeys ? `${where} and ${ADDRESS_KEY} = any(${p(filter.addressKeys)}::text[])` : where;
    }
    case 'load':
      if (filter.addressKeys.length === 0) return null;
      return `kind = 'analytics' and type = 'load' and ${ADDRESS_KEY} = any(${p(filter.addressKeys)}::text[])`;
    case 'track': {
      // `name` is the indexed copy, cut to NAME_CHARACTERS (extractedColumns): equal to a shorter name only when the
      // event's name is that name, so the index alone answers (COVERING_STEP_INDEXES); the body's is read for a longer one.
      const name = p(filter.name);
      const where = `kind = 'analytics' and type = 'track' and name = ${name}`;
      return [...filter.name].length < NAME_CHARACTERS ? where : `${where} and body->>'track_event_name' = ${name}`;
    }
    case 'guide':
      if (filter.stepId === undefined) return null;
      return `kind = 'guide' and guide_id = ${p(filter.guideId)} and guide_step_id = ${p(filter.stepId)}
        and type in (select jsonb_array_elements_text(${p(JSON.stringify(filter.events))}::jsonb))`;
  }
}

/**
 * The statement of step 2: the greedy walk (funnelWalk.ts says which occurrence counts) in SQL, one CTE per step, so
 * the database answers at most one row per unit and step reached, ordered by unit, step, however often the steps
 * happened. Step 1's CTE keeps each unit's earliest occurrence in [from, to) (ties of time: the lowest id); step
 * k's joins step k - 1's matches and keeps, per unit, its earliest occurrence after the one matched in (time, id)
 * order and at most `windowMs` after the entry. A step that counts no event ends the walk there.
 */
function reachedSql(filters: StepFilter[], by: FunnelUnit, params: unknown[]): string | null {
  const unit = by === 'visitor' ? 'visitor_id' : 'account_id';
  // $1 api key, $2 from, $3 to, $4 windowMs, $5 limit.
  const occurrences = (where: string, to: string) => `select ${unit} as unit, time, id from events
      where api_key = $1 and ${unit} <> '' and time >= $2 and time < ${to} and ${where}`;
  const walked: string[] = [];
  for (const [k, filter] of filters.entries()) {
    const where = stepWhere(filter, params);
    if (where === null) break;
    walked.push(k === 0
      ? `s0 as (
    select distinct on (unit) unit, time, id, time as entry from (${occurrences(where, '$3')}) o
    order by unit, time, id
  )`
      : `s${k} as (
    select distinct on (p.unit) p.unit, o.time, o.id, p.entry from s${k - 1} p
    join (${occurrences(where, '$3::bigint + $4::bigint')}) o
      on o.unit = p.unit and (o.time, o.id) > (p.time, p.id) and o.time <= p.entry + $4::bigint
    order by p.unit, o.time, o.id
  )`);
  }
  if (!walked.length) return null;
  return `with ${walked.join(',\n  ')}
select step, unit, time, id from (
  ${walked.map((_, k) => `select ${k} as step, unit, time, id from s${k}`).join('\n  union all\n  ')}
) r
order by unit, step
limit $5`;
}

/** Each entered unit's matched occurrences, one per step reached, by unit id. */
async function walkUnits(db: Database, apiKey: string, question: FunnelQuestion, filters: StepFilter[]): Promise<Map<string, Reached>> {
  const params: unknown[] = [apiKey, question.from, question.to, question.windowMs, MAX_REACHED + 1];
  const sql = reachedSql(filters, question.by, params);
  const reached = new Map<string, Reached>();
  if (sql === null) return reached;
  const { rows } = await db.query<{ step: number | string; unit: string; time: number | string; id: number | string }>(sql, params);
  if (rows.length > MAX_REACHED) {
    throw new HttpError(400, `more than ${MAX_REACHED} steps were reached in this range, more than a funnel answers yet: shorten the range (to)`, 'to');
  }
  for (const row of rows) {
    let steps = reached.get(row.unit);
    if (!steps) reached.set(row.unit, (steps = []));
    // pg answers bigint as text, PGlite as a number.
    steps.push({ time: Number(row.time), id: Number(row.id) });
  }
  return reached;
}

/** The breakdown field's value of each unit that has it (latest metadata the collector keeps). */
async function valuesOf(db: Database, apiKey: string, by: FunnelUnit, field: string, units: string[]): Promise<Map<string, string>> {
  const [table, id] = by === 'visitor' ? ['console_visitors', 'visitor_id'] : ['console_accounts', 'account_id'];
  const { rows } = await db.query<{ unit: string; value: string | null }>(
    `select ${id} as unit, metadata->>$2 as value from ${table}
     where api_key = $1 and ${id} in (select jsonb_array_elements_text($3::jsonb)) and metadata->>$2 is not null`,
    [apiKey, field, JSON.stringify(units)],
  );
  return new Map(rows.map((row) => [row.unit, String(row.value).slice(0, MAX_VALUE_LENGTH)]));
}

/** Counts as answered: the count under the unit's name. */
function stepAnswers(counts: FunnelStepCounts[], by: FunnelUnit): FunnelStepAnswer[] {
  return counts.map(({ count, ...rest }) => ({ [by === 'visitor' ? 'visitors' : 'accounts']: count, ...rest }));
}

/** Answers a checked funnel question of an app. */
export async function queryFunnel(db: Database, apiKey: string, question: FunnelQuestion, sources: StepSources): Promise<FunnelAnswer> {
  const { from, to, windowMs, by, breakdown } = question;
  const filters = await resolveSteps(db, apiKey, question.steps, { from, to: to + windowMs }, sources);
  const reached = await walkUnits(db, apiKey, question, filters);
  const n = filters.length;
  const counts = countFunnel(reached.values(), n);
  const dropped = droppedIds(reached, n);
  const steps = stepAnswers(counts, by).map((step, k) => (k === 0 ? step : { ...step, dropped: dropped[k - 1]! }));
  const answer: FunnelAnswer = { from, to, windowMs, by, steps, overall: counts[n - 1]!.overall };
  if (breakdown !== undefined) {
    const values = reached.size ? await valuesOf(db, apiKey, by, breakdown, [...reached.keys()]) : new Map<string, string>();
    answer.breakdown = {
      field: breakdown,
      values: groupByValue(reached, values).map(({ value, units }) => {
        const groupCounts = countFunnel(units, n);
        return { value, steps: stepAnswers(groupCounts, by), overall: groupCounts[n - 1]!.overall };
      }),
    };
  }
  return answer;
}
