/**
 * The features and pages of each app (issue #35; tables in ANALYTICS_SCHEMA, migration 17): a row per rule, keyed
 * by (app, id), so an id of another app is simply not found. Rules are checked by the routes before they get here
 * (checkRuleBodies); what only the database can know (a feature's page exists, a page is still in use) is decided
 * in the statement that writes, so two editors at once cannot leave a feature limited to a deleted page.
 *
 * These types are the routes' answers; they move to shared/api when the console reads them (a later slice).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../storage/Database';
import { rethrowAsClientDataError } from '../HttpError';
import type { Feature, FeatureEventProperty, FeatureRule, Page, PageRule } from '../../shared/api/rules';

/** Features, and pages, one app may have: a bound on what a caller can make the server keep and count. */
export const MAX_RULES_PER_APP = 1000;

export type { Feature, FeatureEventProperty, FeatureRule, Page, PageRule };

/** A feature's change: a new name, rule, event properties (null: none), or some of them. */
export interface FeatureUpdate {
  name?: string;
  rule?: FeatureRule;
  eventProperties?: FeatureEventProperty[] | null;
}

/** Why a write did not happen. */
export type RuleRefusal = 'too many' | 'unknown page';

/** The features and pages tables. */
export interface RuleStore {
  /** The app's features, oldest first. */
  listFeatures(apiKey: string): Promise<Feature[]>;
  getFeature(apiKey: string, id: string): Promise<Feature | undefined>;
  createFeature(apiKey: string, name: string, rule: FeatureRule, now: number, eventProperties?: FeatureEventProperty[]): Promise<Feature | RuleRefusal>;
  /** Renames, replaces the rule and/or the event properties; undefined when the app has no such feature. */
  updateFeature(apiKey: string, id: string, change: FeatureUpdate, now: number): Promise<Feature | 'unknown page' | undefined>;
  /** False when the app has no such feature. */
  deleteFeature(apiKey: string, id: string): Promise<boolean>;
  listPages(apiKey: string): Promise<Page[]>;
  getPage(apiKey: string, id: string): Promise<Page | undefined>;
  createPage(apiKey: string, name: string, rule: PageRule, now: number): Promise<Page | 'too many'>;
  updatePage(apiKey: string, id: string, change: { name?: string; rule?: PageRule }, now: number): Promise<Page | undefined>;
  /** False when the app has no such page; the names of the features limited to it when it is in use (not deleted). */
  deletePage(apiKey: string, id: string): Promise<boolean | { usedBy: string[] }>;
}

interface Row {
  id: string;
  name: string;
  created_at: string | number;
  updated_at: string | number;
}
type FeatureRow = Row & { selector: string; page_id: string | null; event_properties: FeatureEventProperty[] | null };
type PageRow = Row & { url_rule: string };

const FEATURE_COLUMNS = 'id, name, selector, page_id, event_properties, created_at, updated_at';
const PAGE_COLUMNS = 'id, name, url_rule, created_at, updated_at';

const featureOf = (row: FeatureRow): Feature => ({
  id: row.id,
  name: row.name,
  rule: { selector: row.selector, ...(row.page_id === null ? {} : { page: row.page_id }) },
  ...(row.event_properties === null ? {} : { eventProperties: row.event_properties }),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

const pageOf = (row: PageRow): Page => ({
  id: row.id,
  name: row.name,
  rule: { url: row.url_rule },
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/**
 * SET items starting a rule's backfill again (issue #35 "Fast at real volumes", backfillRule.ts) when `changed`
 * (SQL boolean) holds: a new generation, so keys matched for the old rule are no longer read, and the job back to
 * its start, unclaimed.
 */
const restartBackfill = (changed: string) => `
  backfill_generation = backfill_generation + case when ${changed} then 1 else 0 end,
  backfill_cursor = case when ${changed} then null else backfill_cursor end,
  backfill_done = case when ${changed} then 0 else backfill_done end,
  backfill_total = case when ${changed} then null else backfill_total end,
  backfill_owner = case when ${changed} then null else backfill_owner end,
  backfill_lease = case when ${changed} then null else backfill_lease end,
  backfilled_at = case when ${changed} then null else backfilled_at end`;

/** Deletes a rule and its matched keys; answers its id when it was there. */
const deleteRule = (table: string, kind: 'feature' | 'page') => `
with gone as (delete from ${table} where api_key = $1 and id = $2 returning id),
keys as (delete from analytics_rule_keys where api_key = $1 and rule_kind = '${kind}' and rule_id in (select id from gone))
select id from gone`;

/** 23503: a foreign key refused the write (a feature's page that is not, or no longer, the app's). */
const isForeignKeyRefusal = (err: unknown) => (err as { code?: string }).code === '23503';

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createRuleStore(db: Database): RuleStore {
  /** Runs a write; a foreign key's refusal is `unknown page`, a data exception a 400. */
  const write = async <T>(run: () => Promise<T>, what: string): Promise<T | 'unknown page'> => {
    try {
      return await run();
    } catch (err) {
      if (isForeignKeyRefusal(err)) return 'unknown page';
      return rethrowAsClientDataError(err, what);
    }
  };

  return {
    async listFeatures(apiKey) {
      const { rows } = await db.query<FeatureRow>(`select ${FEATURE_COLUMNS} from analytics_features where api_key = $1 order by created_at, id`, [apiKey]);
      return rows.map(featureOf);
    },
    async getFeature(apiKey, id) {
      const { rows } = await db.query<FeatureRow>(`select ${FEATURE_COLUMNS} from analytics_features where api_key = $1 and id = $2`, [apiKey, id]);
      return rows[0] && featureOf(rows[0]);
    },
    async createFeature(apiKey, name, rule, now, eventProperties) {
      // One statement, so the count bounds what it inserts (two racing may pass it together: off by one at most).
      const made = await write(
        () => db.query<FeatureRow>(
          `insert into analytics_features (api_key, id, name, selector, page_id, event_properties, created_at, updated_at)
           select $1, $2, $3, $4, $5, $8::jsonb, $6, $6 where (select count(*) from analytics_features where api_key = $1) < $7
           returning ${FEATURE_COLUMNS}`,
          [apiKey, randomUUID(), name, rule.selector, rule.page ?? null, now, MAX_RULES_PER_APP, eventProperties ? JSON.stringify(eventProperties) : null],
        ),
        'the feature',
      );
      if (made === 'unknown page') return made;
      return made.rows[0] ? featureOf(made.rows[0]) : 'too many';
    },
    async updateFeature(apiKey, id, change, now) {
      const rule = change.rule;
      const updated = await write(
        () => db.query<FeatureRow>(
          `update analytics_features set
             name = coalesce($3, name),
             selector = case when $4::boolean then $5 else selector end,
             page_id = case when $4::boolean then $6 else page_id end,
             event_properties = case when $8::boolean then $9::jsonb else event_properties end,
             updated_at = $7,${restartBackfill('$4::boolean')}
           where api_key = $1 and id = $2 returning ${FEATURE_COLUMNS}`,
          [
            apiKey, id, change.name ?? null, rule !== undefined, rule?.selector ?? null, rule?.page ?? null, now,
            change.eventProperties !== undefined, change.eventProperties ? JSON.stringify(change.eventProperties) : null,
          ],
        ),
        'the feature',
      );
      if (updated === 'unknown page') return updated;
      return updated.rows[0] && featureOf(updated.rows[0]);
    },
    async deleteFeature(apiKey, id) {
      const { rows } = await db.query(deleteRule('analytics_features', 'feature'), [apiKey, id]);
      return rows.length > 0;
    },

    async listPages(apiKey) {
      const { rows } = await db.query<PageRow>(`select ${PAGE_COLUMNS} from analytics_pages where api_key = $1 order by created_at, id`, [apiKey]);
      return rows.map(pageOf);
    },
    async getPage(apiKey, id) {
      const { rows } = await db.query<PageRow>(`select ${PAGE_COLUMNS} from analytics_pages where api_key = $1 and id = $2`, [apiKey, id]);
      return rows[0] && pageOf(rows[0]);
    },
    async createPage(apiKey, name, rule, now) {
      let made;
      try {
        made = await db.query<PageRow>(
          `insert into analytics_pages (api_key, id, name, url_rule, created_at, updated_at)
           select $1, $2, $3, $4, $5, $5 where (select count(*) from analytics_pages where api_key = $1) < $6
           returning ${PAGE_COLUMNS}`,
          [apiKey, randomUUID(), name, rule.url, now, MAX_RULES_PER_APP],
        );
      } catch (err) {
        return rethrowAsClientDataError(err, 'the page');
      }
      return made.rows[0] ? pageOf(made.rows[0]) : 'too many';
    },
    async updatePage(apiKey, id, change, now) {
      let updated;
      try {
        updated = await db.query<PageRow>(
          `update analytics_pages set name = coalesce($3, name), url_rule = coalesce($4, url_rule), updated_at = $5,${restartBackfill('$4::text is not null')}
           where api_key = $1 and id = $2 returning ${PAGE_COLUMNS}`,
          [apiKey, id, change.name ?? null, change.rule?.url ?? null, now],
        );
      } catch (err) {
        return rethrowAsClientDataError(err, 'the page');
      }
      return updated.rows[0] && pageOf(updated.rows[0]);
    },
    async deletePage(apiKey, id) {
      try {
        const { rows } = await db.query(deleteRule('analytics_pages', 'page'), [apiKey, id]);
        return rows.length > 0;
      } catch (err) {
        if (!isForeignKeyRefusal(err)) throw err;
        const { rows } = await db.query<{ name: string }>(
          'select name from analytics_features where api_key = $1 and page_id = $2 order by created_at, id limit 10',
          [apiKey, id],
        );
        return { usedBy: rows.map((r) => r.name) };
      }
    },
  };
}
