/**
 * A funnel's answer (issue #35 "Funnels", `POST /api/apps/{apiKey}/funnels`): visitors (or accounts) per step,
 * conversion from the previous step and from step 1, the median time from the previous step, who dropped at each
 * step, and the same counts per value of a metadata field. Exact, over the stored events:
 * 1. funnelSteps resolves each step to the events it counts (the keys of its elements and addresses, a track name, a
 *    guide's step and event types);
 * 2. one SQL statement answers, per unit (a visitor id, or an account id: the account's visitors' events merged
 *    into one timeline), its earliest step-1 occurrence in [from, to) and the later steps' occurrences within
 *    `windowMs` of it: only what the walk can use;
 * 3. Node walks each unit's occurrences in (time, id) order (funnelWalk: which occurrence counts is defined there)
 *    and counts.
 * Events without a visitor id (by visitor) or an account id (by account) are not counted. A breakdown reads the
 * latest metadata the collector keeps for the unit (console_visitors.metadata, as the visitor page shows it; for
 * accounts console_accounts.metadata): the field's value as text (`->>`: numbers and booleans as written, objects
 * as JSON), cut to 200 characters; a unit without it is "(none)".
 *
 * Fast at real volumes (issue #35): step 1 resolves a backfilled rule from its rule keys, and each step's SQL
 * (stepWhere) is answered by an index of its kind of step (STEP_INDEXES.ts: element key, address key or track name,
 * then time), so a funnel reads its steps' events of the span and no others, bounded by MAX_OCCURRENCES.
 */
import { HttpError } from '../HttpError';
import type { Database } from '../storage/Database';
import type { FunnelAnswer, FunnelBreakdownValue, FunnelStepAnswer } from '../../shared/api/funnels';
import type { FunnelQuestion, FunnelUnit } from './funnelBody';
import { ADDRESS_KEY, ELEMENT_KEY } from './STEP_INDEXES';
import { resolveSteps, type StepFilter, type StepSources } from './funnelSteps';
import { countFunnel, droppedIds, groupByValue, walkFunnel, type FunnelStepCounts, type Occurrence, type Reached } from './funnelWalk';

/** Step occurrences one funnel reads (the rows of the statement of 2. above); more is a 400 naming `to`. */
export const MAX_OCCURRENCES = 500_000;
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
      // `name` is the indexed copy, cut to 200 characters (extractedColumns); the body's name is the exact one.
      const name = p(filter.name);
      return `kind = 'analytics' and type = 'track' and name = ${name} and body->>'track_event_name' = ${name}`;
    }
    case 'guide':
      if (filter.stepId === undefined) return null;
      return `kind = 'guide' and guide_id = ${p(filter.guideId)} and guide_step_id = ${p(filter.stepId)}
        and type in (select jsonb_array_elements_text(${p(JSON.stringify(filter.events))}::jsonb))`;
  }
}

/**
 * The statement of step 2: rows (step, unit, time, id) ordered by unit, step, time, id. Step 1's rows are the
 * unit's earliest in [from, to) (ties of time: all of them, the walk takes the lowest id); a later step's rows those
 * in [entry, entry + windowMs].
 */
function occurrencesSql(filters: StepFilter[], by: FunnelUnit, params: unknown[]): string | null {
  const unit = by === 'visitor' ? 'visitor_id' : 'account_id';
  // $1 api key, $2 from, $3 to, $4 windowMs, $5 limit.
  const branches: string[] = [];
  for (const [k, filter] of filters.entries()) {
    const where = stepWhere(filter, params);
    if (where === null) {
      if (k === 0) return null;
      continue;
    }
    branches.push(`select ${k} as step, ${unit} as unit, time, id from events
      where api_key = $1 and ${unit} <> '' and time >= $2 and time < ${k === 0 ? '$3' : '$3::bigint + $4::bigint'} and ${where}`);
  }
  return `with occ as (
  ${branches.join('\n  union all\n  ')}
),
entry as (select unit, min(time) as t from occ where step = 0 group by unit)
select o.step, o.unit, o.time, o.id from occ o join entry e on e.unit = o.unit
where (o.step = 0 and o.time = e.t) or (o.step > 0 and o.time >= e.t and o.time <= e.t + $4::bigint)
order by o.unit, o.step, o.time, o.id
limit $5`;
}

/** Each entered unit's matched occurrences (funnelWalk), by unit id. */
async function walkUnits(db: Database, apiKey: string, question: FunnelQuestion, filters: StepFilter[]): Promise<Map<string, Reached>> {
  const params: unknown[] = [apiKey, question.from, question.to, question.windowMs, MAX_OCCURRENCES + 1];
  const sql = occurrencesSql(filters, question.by, params);
  const reached = new Map<string, Reached>();
  if (sql === null) return reached;
  const { rows } = await db.query<{ step: number | string; unit: string; time: number | string; id: number | string }>(sql, params);
  if (rows.length > MAX_OCCURRENCES) {
    throw new HttpError(400, `the steps happened more than ${MAX_OCCURRENCES} times in this range, more than a funnel counts exactly yet: shorten the range (to) or the window`, 'to');
  }
  let unit: string | undefined;
  let byStep: Occurrence[][] = [];
  const flush = () => {
    if (unit !== undefined) reached.set(unit, walkFunnel(byStep, question.windowMs));
  };
  for (const row of rows) {
    if (row.unit !== unit) {
      flush();
      unit = row.unit;
      byStep = filters.map(() => []);
    }
    // pg answers bigint as text, PGlite as a number.
    byStep[Number(row.step)]!.push({ time: Number(row.time), id: Number(row.id) });
  }
  flush();
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
