/**
 * A segment's behaviour conditions as SQL (issue #35 "Segments"): each condition resolved once to the events it
 * counts, the way a funnel's step is (funnelSteps: a feature's matched distinct elements and addresses, a page's
 * addresses, a track name, a guide's first step seen), then counted per visitor by one `count(*) filter (...)`
 * column per condition, in one statement however many conditions (and segments) there are.
 * - `{ feature | page | track, atLeast, days }` holds when the count within the last `days` days is >= atLeast;
 * - `{ guideSeen, days }`: at least one guideSeen of the guide's first step;
 * - `{ never: ..., days }`: the count is 0.
 * The window is [now - days * 1 day, now]: an event exactly `days` days old counts. A condition whose definition is
 * gone (a feature deleted since) or too wide to match exactly (funnelSteps' bounds) counts no event.
 */
import type { Database } from '../../storage/Database';
import { DAY_MS } from '../../summaries/CONSOLE_SCHEMA';
import { stepWhere } from '../funnelQuery';
import { resolveSteps, type StepFilter, type StepSources } from '../funnelSteps';
import type { BehaviourRule } from './segmentBody';

/** A behaviour condition with the events it counts; `filter` null: none. */
export interface ResolvedRule extends BehaviourRule {
  filter: StepFilter | null;
}

/** The widest span of events: rules are resolved over all that is stored, the window applies when counting. */
const ALL_TIME = { from: 0, to: 8.64e15 };

/** Resolves each rule to its events over all stored events of the app (funnelSteps' matching). */
export async function resolveRules(db: Database, apiKey: string, rules: readonly BehaviourRule[], sources: StepSources): Promise<ResolvedRule[]> {
  const resolved: ResolvedRule[] = [];
  for (const rule of rules) {
    let filter: StepFilter | null;
    try {
      [filter = null] = await resolveSteps(db, apiKey, [rule.step], ALL_TIME, sources);
    } catch {
      // An id no longer the app's, or more distinct values than funnelSteps matches exactly: no events.
      filter = null;
    }
    resolved.push({ ...rule, filter });
  }
  return resolved;
}

/**
 * stepWhere's SQL of a filter; a click's first compares the element's extracted columns (el_id, el_text: plain
 * columns, extractedColumns) with the kept elements' own, so the jsonb of `props.target` is read only for the clicks
 * that may match: reading it for each of a visitor's events was most of the statement's time (bench:segments).
 * Exact all the same: the jsonb comparison still decides.
 */
function eventsWhere(filter: StepFilter, params: unknown[]): string | null {
  const where = stepWhere(filter, params);
  if (where === null || filter.type !== 'click') return where;
  const kept = `$${params.push(`[${filter.targets.join(',')}]`)}::jsonb`;
  // The same expressions as the extracted columns', over the kept elements.
  const column = (name: 'el_id' | 'el_text', key: 'id' | 'txt') =>
    `coalesce(${name}, '') in (select coalesce(left(t->>'${key}', 200), '') from jsonb_array_elements(${kept}) t)`;
  return `${column('el_id', 'id')} and ${column('el_text', 'txt')} and ${where}`;
}

/**
 * The count columns (`c0`, `c1`, ...) of `rules` over the events of the statement's FROM, their parameters added to
 * `params`; and `any`, the OR of their filters (null when none counts anything), to read only the events that may count.
 */
export function countColumns(rules: readonly ResolvedRule[], params: unknown[], now: number): { columns: string[]; any: string | null } {
  const wheres: string[] = [];
  const columns = rules.map((rule, i) => {
    const where = rule.filter && eventsWhere(rule.filter, params);
    if (where === null) return `0 as c${i}`;
    wheres.push(`(${where})`);
    const window = rule.days === undefined ? '' : ` and time >= $${params.push(now - rule.days * DAY_MS)}`;
    return `count(*) filter (where (${where})${window}) as c${i}`;
  });
  return { columns, any: wheres.length ? wheres.join(' or ') : null };
}

/** True when `counts` (per rule, in order) satisfy every rule. */
export function holdsAll(rules: readonly ResolvedRule[], counts: readonly number[]): boolean {
  return rules.every((rule, i) => (rule.never ? counts[i] === 0 : (counts[i] ?? 0) >= rule.atLeast));
}

/** The SQL test of one rule's column `c{i}` of a counts row aliased `alias` (a visitor without a row counted 0). */
export function holdsSql(rules: readonly ResolvedRule[], alias: string): string {
  return rules.map((rule, i) => `coalesce(${alias}.c${i}, 0) ${rule.never ? '= 0' : `>= ${Number(rule.atLeast)}`}`).join(' and ') || 'true';
}

/**
 * The ids (as the extracted `el_id` column holds them: cut to 200 characters) of a click filter's kept elements;
 * undefined when one has no id of text (its `el_id` is null or a number's text): then the id cannot narrow the read.
 */
function keptIds(filter: StepFilter): string[] | undefined {
  if (filter.type !== 'click') return undefined;
  const ids: string[] = [];
  for (const target of filter.targets) {
    const id = (JSON.parse(target) as { id?: unknown }).id;
    if (typeof id !== 'string') return undefined;
    ids.push([...id].slice(0, 200).join(''));
  }
  return ids;
}

/**
 * One visitor's counts of `rules`, by one statement: a scalar count per rule, each an index range of that visitor's
 * events of the rule's type (and, for a feature, of its elements' ids): `events_by_visitor_element` (migration 18),
 * so a visitor's other events are not read at all.
 */
export async function visitorCounts(db: Database, apiKey: string, visitorId: string, rules: readonly ResolvedRule[], now: number): Promise<number[]> {
  const params: unknown[] = [apiKey, visitorId];
  const counts = rules.map((rule, i) => {
    const where = rule.filter && eventsWhere(rule.filter, params);
    if (where === null) return `0 as c${i}`;
    const ids = keptIds(rule.filter!);
    const byId = ids ? ` and el_id = any($${params.push(ids)}::text[])` : '';
    const window = rule.days === undefined ? '' : ` and time >= $${params.push(now - rule.days * DAY_MS)}`;
    return `(select count(*) from events where api_key = $1 and visitor_id = $2${byId} and ${where}${window}) as c${i}`;
  });
  if (counts.every((c) => c.startsWith('0 as'))) return rules.map(() => 0);
  const { rows } = await db.query<Record<string, string | number>>(`select ${counts.join(', ')}`, params);
  return rules.map((_, i) => Number(rows[0]?.[`c${i}`] ?? 0));
}
