/**
 * How much a feature or a page was used (issue #35 "Features and pages, retroactive"): events, distinct visitors and
 * accounts, and a series per UTC day, over every stored event of the span (all time, or `from`/`to`), so a rule made
 * today counts last month's use.
 *
 * Matching a CSS selector or a URL rule is Node's work (compileSelector, compileUrlRule), not SQL's; the events are
 * not read one by one for it. A read takes three steps:
 * 1. SQL answers the distinct values the rule looks at, over the span: a click's stored element (`props.target`, as
 *    jsonb text) or an address (`url`). A product has far fewer of those than events.
 * 2. Node keeps the values the rule matches.
 * 3. One SQL statement counts the events that carry a kept value (equality on jsonb and text), with the totals and
 *    the per-day rows in one pass (grouping sets).
 * - a feature: `click` events whose element (or an ancestor of it) the selector matches and, when the feature is
 *   limited to a page, whose address the page's rule matches;
 * - a page: `load` events (a page load, or a single-page app's change of address) whose address the rule matches.
 * Accounts are distinct non-empty account ids; visitors distinct non-empty visitor ids. Days are UTC days of the
 * event's time (the agent's clock, else when it was stored: summaries/extractedColumns).
 *
 * This reads the events of the span for each question: the routes read the rollups instead (queryRollupUse, issue
 * #35 "Fast at real volumes"); this stays the reference they are tested against (test/server/rollups.test.ts).
 */
import type { Database } from '../storage/Database';
import { DAY_MS } from '../summaries/CONSOLE_SCHEMA';
import type { ConsoleRange } from '../../shared/api';
import type { RuleUse, UseDay } from '../../shared/api/rules';
import { compileSelector } from './compileSelector';
import { compileUrlRule } from './compileUrlRule';
import type { FeatureRule, PageRule } from './createRuleStore';

export type { RuleUse, UseDay };

/** The event types a rule counts. */
type CountedType = 'click' | 'load';

// $1 api key, $2 type, $3 from (or null), $4 to (or null): the span's events of the type.
const SPAN = `api_key = $1 and kind = 'analytics' and type = $2
  and ($3::bigint is null or time >= $3) and ($4::bigint is null or time < $4)`;

/** Step 1: the distinct elements clicked (jsonb text: equal elements are equal text) or addresses of the span. */
const DISTINCT = {
  target: `select distinct (body->'props'->'target')::text as value from events
    where ${SPAN} and jsonb_typeof(body->'props'->'target') = 'object'`,
  url: `select distinct url as value from events where ${SPAN} and url is not null`,
} as const;

/**
 * Step 3: the events carrying a kept element ($5, a JSON array of them, or null: any) and address ($6, likewise),
 * counted in total (`grouping(day) = 1`) and per UTC day of their time.
 */
const COUNT = `
with matched as (
  select time - (((time % ${DAY_MS}) + ${DAY_MS}) % ${DAY_MS}) as day, nullif(visitor_id, '') as visitor, nullif(account_id, '') as account
  from events
  where ${SPAN}
    and ($5::jsonb is null or body->'props'->'target' in (select jsonb_array_elements($5::jsonb)))
    and ($6::jsonb is null or url in (select jsonb_array_elements_text($6::jsonb)))
)
select grouping(day) as total, day, count(*) as events, count(distinct visitor) as visitors, count(distinct account) as accounts
from matched group by grouping sets ((day), ()) order by total desc, day`;

const spanParams = (apiKey: string, type: CountedType, range: ConsoleRange | null) => [apiKey, type, range?.from ?? null, range?.to ?? null];

/** Step 1 and 2: the distinct values of the span that `keep` keeps. */
async function keptValues(db: Database, which: keyof typeof DISTINCT, params: unknown[], keep: (value: string) => boolean): Promise<string[]> {
  const { rows } = await db.query<{ value: string }>(DISTINCT[which], params);
  return rows.map((row) => row.value).filter(keep);
}

/** A row of a count by `grouping sets ((day), ())`: the total (`total` 1) or one day's. */
export interface UseRow {
  total: number | string;
  day: string | number | null;
  events: string | number | null;
  visitors: string | number;
  accounts: string | number;
}

/** The use a count's rows tell: the total row's counts and the days' series (pg answers bigints as strings). */
export function useOfRows(rows: readonly UseRow[], range: ConsoleRange | null): RuleUse {
  const counts = (row: UseRow) => ({ events: Number(row.events ?? 0), visitors: Number(row.visitors), accounts: Number(row.accounts) });
  const total = rows.find((row) => Number(row.total) === 1);
  return {
    range,
    ...(total ? counts(total) : { events: 0, visitors: 0, accounts: 0 }),
    series: rows.filter((row) => Number(row.total) === 0).map((row) => ({ t: Number(row.day), ...counts(row) })),
  };
}

/** Step 3; `targets` and `urls` undefined mean any, empty mean none. */
async function countEvents(db: Database, params: unknown[], range: ConsoleRange | null, targets?: string[], urls?: string[]): Promise<RuleUse> {
  if (targets?.length === 0 || urls?.length === 0) return useOfRows([], range);
  // jsonb texts joined as they came (never re-serialized in JS: a number JSON.parse would round stays exact).
  const targetsJson = targets && `[${targets.join(',')}]`;
  const { rows } = await db.query<UseRow>(COUNT, [...params, targetsJson ?? null, urls ? JSON.stringify(urls) : null]);
  return useOfRows(rows, range);
}

/** The use of a feature; `page` is the rule of the page it is limited to, when it is. */
export async function queryFeatureUse(db: Database, apiKey: string, rule: FeatureRule, page: PageRule | undefined, range: ConsoleRange | null): Promise<RuleUse> {
  const params = spanParams(apiKey, 'click', range);
  const selector = compileSelector(rule.selector);
  const urlRule = page && compileUrlRule(page.url);
  // Stored rules were checked when saved; one that no longer compiles (a selector engine's upgrade) matches nothing.
  if ('problem' in selector || (urlRule && 'problem' in urlRule)) return countEvents(db, params, range, []);
  const targets = await keptValues(db, 'target', params, (text) => selector.matchesClick(JSON.parse(text)));
  const urls = urlRule && targets.length ? await keptValues(db, 'url', params, (url) => urlRule.matches(url)) : undefined;
  return countEvents(db, params, range, targets, urls);
}

/** The use of a page: its page loads. */
export async function queryPageUse(db: Database, apiKey: string, rule: PageRule, range: ConsoleRange | null): Promise<RuleUse> {
  const params = spanParams(apiKey, 'load', range);
  const urlRule = compileUrlRule(rule.url);
  if ('problem' in urlRule) return countEvents(db, params, range, undefined, []);
  const urls = await keptValues(db, 'url', params, (url) => urlRule.matches(url));
  return countEvents(db, params, range, undefined, urls);
}
