/**
 * Features and pages of an app (issue #35 "Features and pages, retroactive"), under `/api/apps/{apiKey}/features` and
 * `/api/apps/{apiKey}/pages`:
 * - `POST` `{ "name", "rule" }` -> 201 `{ "id" }`; `GET` the list (definitions only, oldest first);
 * - `GET .../{id}` -> the definition with its use: `visitors`, `accounts`, `events` and a per-day `series`, over all
 *   time, or `from`/`to` (epoch ms; parseRange, widened to whole UTC days; `bucket` may only be `day`);
 * - `PATCH .../{id}` `{ "name"?, "rule"? }` (a rename, a new rule, or both) -> the definition; `DELETE` -> 204.
 * A feature's rule is `{ "selector", "page"? }` (a page id of the same app); a page's `{ "url" }`.
 * A feature may carry `eventProperties` (analytics §3 event property rules: readEventProperties), which guide.json
 * serves to the agent (servedFeatures).
 * Viewers read; editors and admins write (auth/roles: analytics are a viewer's to read, definitions an editor's to
 * make, as guides are). A designer session of the app may list pages and make features and pages ("Tag this
 * feature" in the designer, within its author's role). Each change is recorded in the audit trail. An id of another app is a 404 like an unknown one.
 * Bodies: checkRuleBodies (400 naming the field). Counts: the rollups (queryRollupUse, issue #35 "Fast at real
 * volumes"), after a flush of the summaries; a saved rule's background backfill (createRuleBackfill) is started at
 * once, and a read runs it for up to SETTLE_MS, then answers its state as `backfill` beside the counts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessOf } from '../auth/routeAccess';
import { HttpError } from '../HttpError';
import { parseRange } from '../queries/parseRange';
import { queryParam, type ConsoleQuery } from '../queries/queryParams';
import type { ConsoleRange } from '../../shared/api';
import type { Database } from '../storage/Database';
import { readFeatureBody, readPageBody } from './checkRuleBodies';
import { MAX_RULES_PER_APP, type Feature, type FeatureRule, type Page, type RuleStore } from './createRuleStore';
import { bothStates, queryFeatureRollups, queryPageRollups, readBackfillState } from './queryRollupUse';
import type { RuleBackfill } from './createRuleBackfill';
import type { Summarizer } from '../summaries/createSummarizer';
import type { FeatureDetail, PageDetail } from '../../shared/api/rules';

/** What the routes read and write. */
export interface AnalyticsRoutesOptions {
  rules: RuleStore;
  /** The rollups' database, counted by queryRollupUse. */
  db: Database;
  /** The summarizer: a read flushes it first, so the rollups hold every batch answered before it. */
  summaries: Pick<Summarizer, 'flush'>;
  /** The rules' background backfills: started when a rule is saved, run by a read for a bounded time. */
  backfill: Pick<RuleBackfill, 'kick' | 'settle'>;
  /** The clock of `createdAt`, `updatedAt` and of a range given only `from`. @default Date.now */
  now?: () => number;
  /** Told after a feature or a page of the app changed (the segment judge drops what it resolved with it). */
  onChange?: (apiKey: string) => void;
}


/** The longest a read runs its rule's backfill before answering its progress instead. */
export const SETTLE_MS = 1000;

type RuleRequest = FastifyRequest<{ Params: { apiKey: string; id: string }; Querystring: ConsoleQuery; Body: unknown }>;

/**
 * The span of a read: all time when neither `from` nor `to` is given, else parseRange's reading of them (to defaults
 * to now, from to 7 days before `to`), in whole UTC days.
 */
export function useRange(query: ConsoleQuery, now: number): ConsoleRange | null {
  const bucket = queryParam(query, 'bucket');
  if (bucket !== undefined && bucket !== 'day') throw new HttpError(400, "bucket must be 'day': a feature's or a page's series is per UTC day", 'bucket');
  if (queryParam(query, 'from') === undefined && queryParam(query, 'to') === undefined) return null;
  return parseRange({ ...query, bucket: 'day' }, now);
}

const notFound = (what: 'feature' | 'page', id: string, apiKey: string) =>
  new HttpError(404, `no ${what} '${id.slice(0, 100)}' in app '${apiKey}'`);
const tooMany = (what: 'features' | 'pages') =>
  new HttpError(409, `this app has ${MAX_RULES_PER_APP} ${what} already, the most it may have: delete one first`);
const unknownPage = (rule: FeatureRule | undefined) =>
  new HttpError(400, `rule.page '${rule?.page ?? ''}' is not a page of this app: give the id of one of its pages (GET .../pages), or leave it out`, 'rule.page');

/** Registers the feature and page routes. */
export function registerAnalyticsRoutes(app: FastifyInstance, { rules, db, summaries, backfill, now = Date.now, onChange = () => {} }: AnalyticsRoutesOptions): void {
  const viewer = accessOf('viewer');
  const editor = accessOf('editor');
  // What the designer's "Tag this feature" calls (overlay/author/designer/TagFeature).
  const designerViewer = accessOf('viewer', { designer: true });
  const designerEditor = accessOf('editor', { designer: true });

  app.get('/api/apps/:apiKey/features', viewer, async (request: RuleRequest) => rules.listFeatures(request.params.apiKey));

  app.post('/api/apps/:apiKey/features', designerEditor, async (request: RuleRequest, reply) => {
    const { name, rule, eventProperties } = readFeatureBody(request.body, false);
    const apiKey = request.params.apiKey;
    const made = await rules.createFeature(apiKey, name!, rule!, now(), eventProperties ?? undefined);
    if (made === 'too many') throw tooMany('features');
    if (made === 'unknown page') throw unknownPage(rule);
    onChange(apiKey);
    backfill.kick();
    await app.audit(request, { action: 'feature.created', apiKey, target: made.id, after: made });
    return reply.code(201).send({ id: made.id });
  });

  app.get('/api/apps/:apiKey/features/:id', viewer, async (request: RuleRequest): Promise<FeatureDetail> => {
    const { apiKey, id } = request.params;
    const range = useRange(request.query, now());
    const feature = await rules.getFeature(apiKey, id);
    if (!feature) throw notFound('feature', id, apiKey);
    await summaries.flush();
    await backfill.settle('feature', apiKey, id, SETTLE_MS);
    // The foreign key keeps a feature's page while the feature is limited to it.
    const pageId = feature.rule.page;
    if (pageId !== undefined) await backfill.settle('page', apiKey, pageId, SETTLE_MS);
    const state = bothStates(
      await readBackfillState(db, 'feature', apiKey, id),
      pageId === undefined ? undefined : await readBackfillState(db, 'page', apiKey, pageId),
    );
    return { ...feature, ...(await queryFeatureRollups(db, apiKey, id, pageId, range)), backfill: state };
  });

  app.patch('/api/apps/:apiKey/features/:id', editor, async (request: RuleRequest): Promise<Feature> => {
    const { apiKey, id } = request.params;
    const change = readFeatureBody(request.body, true);
    const before = await rules.getFeature(apiKey, id);
    if (!before) throw notFound('feature', id, apiKey);
    const after = await rules.updateFeature(apiKey, id, change, now());
    if (after === 'unknown page') throw unknownPage(change.rule);
    if (!after) throw notFound('feature', id, apiKey);
    onChange(apiKey);
    if (change.rule) backfill.kick();
    await app.audit(request, { action: 'feature.updated', apiKey, target: id, before, after });
    return after;
  });

  app.delete('/api/apps/:apiKey/features/:id', editor, async (request: RuleRequest, reply) => {
    const { apiKey, id } = request.params;
    const before = await rules.getFeature(apiKey, id);
    if (!before || !(await rules.deleteFeature(apiKey, id))) throw notFound('feature', id, apiKey);
    onChange(apiKey);
    await app.audit(request, { action: 'feature.deleted', apiKey, target: id, before });
    return reply.code(204).send();
  });

  app.get('/api/apps/:apiKey/pages', designerViewer, async (request: RuleRequest) => rules.listPages(request.params.apiKey));

  app.post('/api/apps/:apiKey/pages', designerEditor, async (request: RuleRequest, reply) => {
    const { name, rule } = readPageBody(request.body, false);
    const apiKey = request.params.apiKey;
    const made = await rules.createPage(apiKey, name!, rule!, now());
    if (made === 'too many') throw tooMany('pages');
    onChange(apiKey);
    backfill.kick();
    await app.audit(request, { action: 'page.created', apiKey, target: made.id, after: made });
    return reply.code(201).send({ id: made.id });
  });

  app.get('/api/apps/:apiKey/pages/:id', viewer, async (request: RuleRequest): Promise<PageDetail> => {
    const { apiKey, id } = request.params;
    const range = useRange(request.query, now());
    const page = await rules.getPage(apiKey, id);
    if (!page) throw notFound('page', id, apiKey);
    await summaries.flush();
    await backfill.settle('page', apiKey, id, SETTLE_MS);
    return { ...page, ...(await queryPageRollups(db, apiKey, id, range)), backfill: await readBackfillState(db, 'page', apiKey, id) };
  });

  app.patch('/api/apps/:apiKey/pages/:id', editor, async (request: RuleRequest): Promise<Page> => {
    const { apiKey, id } = request.params;
    const change = readPageBody(request.body, true);
    const before = await rules.getPage(apiKey, id);
    if (!before) throw notFound('page', id, apiKey);
    const after = await rules.updatePage(apiKey, id, change, now());
    if (!after) throw notFound('page', id, apiKey);
    onChange(apiKey);
    if (change.rule) backfill.kick();
    await app.audit(request, { action: 'page.updated', apiKey, target: id, before, after });
    return after;
  });

  app.delete('/api/apps/:apiKey/pages/:id', editor, async (request: RuleRequest, reply) => {
    const { apiKey, id } = request.params;
    const before = await rules.getPage(apiKey, id);
    const deleted = before ? await rules.deletePage(apiKey, id) : false;
    if (!before || deleted === false) throw notFound('page', id, apiKey);
    if (deleted !== true) {
      const names = deleted.usedBy.map((n) => `'${n}'`).join(', ');
      throw new HttpError(409, `page '${id}' is the page of feature${deleted.usedBy.length > 1 ? 's' : ''} ${names}: change or delete ${deleted.usedBy.length > 1 ? 'them' : 'it'} first`);
    }
    onChange(apiKey);
    await app.audit(request, { action: 'page.deleted', apiKey, target: id, before });
    return reply.code(204).send();
  });
}
