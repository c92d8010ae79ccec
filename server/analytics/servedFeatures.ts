/**
 * guide.json's `features` (guides-spec "Guide load response: ... features (featureRule, eventProperties,
 * featureId)"; analytics §3 event property rules): what the agent collects on the clicks of a feature, in the wire
 * shape shared/analytics/eventPropertyRules reads, `{ featureId, featureRules: [selector], eventProperties }`.
 *
 * Served: the features file's entries (kept for the demo, as before), then the app's console features that carry
 * event properties, each only when it applies to the request's page: a feature limited to a page is served when the
 * guide request's `url` matches that page's URL rule (compileUrlRule), never without a url. One indexed query per
 * guide load; compiled URL rules are kept in a small cache by their text.
 */
import type { Database } from '../storage/Database';
import type { FeatureEventProperty } from '../../shared/api/rules';
import { compileUrlRule, type UrlRule } from './compileUrlRule';
import { MAX_RULES_PER_APP } from './createRuleStore';

/** One entry of guide.json's `features`. */
export interface ServedFeature {
  featureId: string;
  featureRules: string[];
  eventProperties: FeatureEventProperty[];
}

/** Compiled URL rules kept between guide loads. */
const CACHE_SIZE = 500;

/** The features a guide load answers for `apiKey` on `url` (the payload's, when it is text). */
export type ServedFeatures = (apiKey: string, url: string | undefined) => Promise<unknown[]>;

/** Reads the app's features with event properties after the file's (`fromFile`). */
export function createServedFeatures(db: Database, fromFile: () => Promise<unknown[]>): ServedFeatures {
  const compiled = new Map<string, UrlRule | null>();
  const urlRule = (text: string): UrlRule | null => {
    let rule = compiled.get(text);
    if (rule === undefined) {
      const made = compileUrlRule(text);
      rule = 'problem' in made ? null : made;
      if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
      compiled.set(text, rule);
    }
    return rule;
  };
  return async (apiKey, url) => {
    const [file, { rows }] = await Promise.all([
      fromFile(),
      db.query<{ id: string; selector: string; event_properties: FeatureEventProperty[]; url_rule: string | null }>(
        `select f.id, f.selector, f.event_properties, p.url_rule from analytics_features f
         left join analytics_pages p on p.api_key = f.api_key and p.id = f.page_id
         where f.api_key = $1 and f.event_properties is not null
         order by f.created_at, f.id limit $2`,
        [apiKey, MAX_RULES_PER_APP],
      ),
    ]);
    const served: ServedFeature[] = rows
      .filter((row) => row.url_rule === null || (url !== undefined && urlRule(row.url_rule)?.matches(url) === true))
      .map((row) => ({ featureId: row.id, featureRules: [row.selector], eventProperties: row.event_properties }));
    return [...file, ...served];
  };
}
