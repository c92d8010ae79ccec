/**
 * The past clicks a feature being tagged in the designer would count (issue #35 "Tagged from the designer too"):
 * over the stored clicks of the last PREVIEW_DAYS UTC days (today included), read from the rollups without a rule
 * saved: the app's clicked elements (the dictionary analytics_elements, read by its key) matched in Node by
 * compileSelector, as a saved feature's backfill matches them, and, when the feature would be limited to a page,
 * the addresses of their clicks in those days matched by the page's URL rule (compileUrlRule). Then one sum over
 * analytics_click_days of those days (its key leads with the element).
 *
 * Bounded: at most MAX_PREVIEW_ENTRIES elements of the dictionary (and addresses) are matched, in key order; with
 * more, the counts are of those only and the answer says `partial`.
 */
import type { Database } from '../storage/Database';
import { DAY_MS } from '../summaries/CONSOLE_SCHEMA';
import type { ElementMatcher } from './compileSelector';
import type { UrlRule } from './compileUrlRule';
import type { FeaturePreview } from '../../shared/api/rules';

/** The UTC days a preview counts, today included. */
export const PREVIEW_DAYS = 30;
/** The most dictionary entries (elements, then addresses) one preview matches. */
export const MAX_PREVIEW_ENTRIES = 20_000;

export type { FeaturePreview };

// $1 api key, $2 limit. The whole dictionary, by its key: finding the elements clicked in the 30 days would scan
// the app's click rollups at each keystroke.
const ELEMENTS = 'select key, target::text as value from analytics_elements where api_key = $1 order by key limit $2';

// $1 api key, $2 first day, $3 limit, $4 the matched element keys (a JSON array).
const ADDRESSES = `
select a.key, a.url as value from analytics_addresses a
where a.api_key = $1 and a.key in (
  select address_key from analytics_click_days
  where api_key = $1 and day >= $2 and element_key in (select jsonb_array_elements_text($4::jsonb))
)
order by a.key limit $3`;

// $3 element keys, $4 address keys (or null: any page).
const COUNT = `
select coalesce(sum(events), 0) as clicks, count(distinct nullif(visitor_id, '')) as visitors from analytics_click_days
where api_key = $1 and day >= $2 and element_key in (select jsonb_array_elements_text($3::jsonb))
  and ($4::jsonb is null or address_key in (select jsonb_array_elements_text($4::jsonb)))`;

/**
 * Counts the clicks `selector` (on pages `url` matches, when given) would have had; `limit` the entries matched
 * (tests lower it).
 */
export async function queryFeaturePreview(
  db: Database,
  apiKey: string,
  selector: ElementMatcher,
  url: UrlRule | undefined,
  now: number,
  limit = MAX_PREVIEW_ENTRIES,
): Promise<FeaturePreview> {
  const from = now - (((now % DAY_MS) + DAY_MS) % DAY_MS) - (PREVIEW_DAYS - 1) * DAY_MS;
  const answer = (clicks: number, visitors: number, partial: boolean): FeaturePreview => ({ clicks, visitors, from, to: now, partial });
  const elements = await db.query<{ key: string; value: string }>(ELEMENTS, [apiKey, limit + 1]);
  let partial = elements.rows.length > limit;
  const elementKeys = elements.rows.slice(0, limit).filter((row) => selector.matchesClick(JSON.parse(row.value))).map((row) => row.key);
  if (!elementKeys.length) return answer(0, 0, partial);
  let addressKeys: string[] | undefined;
  if (url) {
    const addresses = await db.query<{ key: string; value: string }>(ADDRESSES, [apiKey, from, limit + 1, JSON.stringify(elementKeys)]);
    partial ||= addresses.rows.length > limit;
    addressKeys = addresses.rows.slice(0, limit).filter((row) => url.matches(row.value)).map((row) => row.key);
    if (!addressKeys.length) return answer(0, 0, partial);
  }
  const { rows } = await db.query<{ clicks: string | number; visitors: string | number }>(COUNT, [
    apiKey, from, JSON.stringify(elementKeys), addressKeys ? JSON.stringify(addressKeys) : null,
  ]);
  return answer(Number(rows[0]?.clicks ?? 0), Number(rows[0]?.visitors ?? 0), partial);
}
