/**
 * The collector and guide endpoints the agent calls (wire-protocol.md "Endpoints"):
 * analytics beacons on ptm.gif, guide events and the availability probe on guide.gif, the guide list on
 * guide.json. Every answer comes after the rows are stored.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applyStepStates } from '../guides/applyStepStates';
import { checkEventBatch } from './checkEventBatch';
import type { EventKind, EventStore } from './createEventStore';
import type { QuotaStore } from './createQuotaStore';
import type { GuideSource } from '../guides/createGuideSource';
import { chooseLanguage, localizeGuide, wantedLanguages } from '../guides/localizeGuide';
import { applyMarkdown, hasMarkdown } from '../markdown/applyMarkdown';
import type { GuideAssets } from '../guides/registerGuideAssetRoutes';
import { HttpError } from '../HttpError';
import { parseJzb } from './parseJzb';
import { eventsOfBody, requireApiKey, single } from './readDataRequest';
import { SERVER_LIMITS } from './SERVER_LIMITS';
import { storableText } from './textFault';
import { applyTheme, launcherWithTheme } from '../guides/applyTheme';
import type { Guide } from '../../shared/guides/guides';
import { matchesConditions, type SegmentSubject } from '../../shared/segments/segmentConditions';
import type { SegmentJudge } from '../analytics/segments/createSegmentJudge';
import { withExperimentArms } from '../analytics/experiments/experimentArm';

/** What the data routes use. */
export interface DataRoutesOptions {
  store: EventStore;
  /** The app's guides and launcher: the database's, else the guide folder's. */
  guides: GuideSource;
  /** Visitors answered 451 on guide.json (guides §7: the agent stops tracking them). */
  blockedVisitors?: ReadonlySet<string>;
  /** The global guide CSS and script named in every guide.json (guides §3). */
  assets?: GuideAssets;
  /** Api keys whose subscription lacks guides: guide.json says so and lists none (guides §5). */
  guidelessApiKeys?: ReadonlySet<string>;
  /**
   * The `features` of guide.json: event property rules (analytics §3), for the app and the page the request names
   * (analytics/servedFeatures).
   */
  features?: (apiKey: string, url: string | undefined) => Promise<unknown[]>;
  /** The app's events-per-minute quota, taken before a batch is stored (issue #31). @default none */
  quotas?: QuotaStore;
  /** Judges segment audiences (issue #35); without it a guide for a segment is served to no one. */
  segments?: Pick<SegmentJudge, 'segmentsOf'>;
}

type Query = Record<string, string | string[] | undefined>;
type DataRequest = FastifyRequest<{ Params: { apiKey?: string }; Querystring: Query }>;

/**
 * A beacon's GET stores; HEAD must not (issue #31: Fastify answers HEAD with the GET route, which stored the batch):
 * no HEAD copy, so a HEAD is the API's 404.
 */
export const STORES_NO_HEAD = { exposeHeadRoute: false } as const;

/** The 1x1 transparent GIF a beacon answers with (GIF89a, one transparent pixel). */
const TRANSPARENT_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** Registers the /data routes. */
export function registerDataRoutes(app: FastifyInstance, { store, guides, assets, blockedVisitors, guidelessApiKeys, features, quotas, segments }: DataRoutesOptions): void {
  const sink = { store, quotas };
  const sendGif = (reply: FastifyReply) =>
    reply.type('image/gif').header('cache-control', 'no-store').send(TRANSPARENT_GIF);

  // The `?` makes the api key optional in the route so a request without one gets a 400 that says so,
  // rather than a 404.
  app.get('/data/ptm.gif/:apiKey?', STORES_NO_HEAD, async (request: DataRequest, reply) => {
    const apiKey = requireApiKey(request);
    await storeBatch(sink, apiKey, 'analytics', parseJzb(request.query.jzb), sourceOf(request));
    return sendGif(reply);
  });

  // spec: analytics §7 — batches too long for a GET are POSTed as {"events": "<jzb>"}; navigator.sendBeacon
  // sends the same JSON as text/plain.
  app.post('/data/ptm.gif/:apiKey?', async (request: DataRequest, reply) => {
    const apiKey = requireApiKey(request);
    const stored = await storeBatch(sink, apiKey, 'analytics', eventsOfBody(request.body), sourceOf(request));
    return reply.send({ stored });
  });

  // spec: guides §7 — guide events, and the availability probe (jzb of []), which stores nothing.
  app.get('/data/guide.gif/:apiKey?', STORES_NO_HEAD, async (request: DataRequest, reply) => {
    const apiKey = requireApiKey(request);
    await storeBatch(sink, apiKey, 'guide', parseJzb(request.query.jzb), sourceOf(request));
    return sendGif(reply);
  });

  // Not in the observed traffic, accepted so an agent that POSTs a long guide batch is not lost.
  app.post('/data/guide.gif/:apiKey?', async (request: DataRequest, reply) => {
    const apiKey = requireApiKey(request);
    const stored = await storeBatch(sink, apiKey, 'guide', eventsOfBody(request.body), sourceOf(request));
    return reply.send({ stored });
  });

  // guides §7 — the poll beacon: pollResponse events, stored with the guide events.
  app.get('/data/poll.gif/:apiKey?', STORES_NO_HEAD, async (request: DataRequest, reply) => {
    const apiKey = requireApiKey(request);
    await storeBatch(sink, apiKey, 'guide', parseJzb(request.query.jzb), sourceOf(request));
    return sendGif(reply);
  });

  const guideList = async (apiKey: string, id: string | undefined, payload: unknown, acceptLanguage: string | undefined) => {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      throw new HttpError(400, 'guide.json payload must be an object {visitorId, accountId, url, oldVisitorId, metadata}');
    }
    const { visitorId, url, oldVisitorId } = payload as { visitorId?: unknown; url?: unknown; oldVisitorId?: unknown };
    const pageUrl = typeof url === 'string' ? url : undefined;
    // issue #31: the visitor id goes into a query; text the database refuses is a 400 naming it, not a 500.
    if (typeof visitorId === 'string') storableText(visitorId, 'visitorId');
    // issue #15: a guide with an audience goes only to visitors in it, and never says who it is for.
    const subject = payload as SegmentSubject;
    const wanted = wantedLanguages((subject.metadata?.visitor as { language?: unknown } | undefined)?.language, acceptLanguage);
    // issue #17: each guide in the visitor's language (metadata, else the browser's), else as written; its steps in
    // the app's theme (the console's Settings).
    const listed = await guides.list(apiKey);
    // issue #35: segment audiences are judged only when a listed guide has one, in one query for all of them, while
    // the site config is read (on PostgreSQL the two round trips overlap: the budget is 5 ms at p95).
    const segmentIds = [...new Set(listed.flatMap((g) => (g.audience?.segment === undefined ? [] : [g.audience.segment])))];
    const judging = segmentIds.length && segments ? segments.segmentsOf(apiKey, segmentIds, subject) : undefined;
    // Awaited below; a refusal of the site config's read first must not leave it unhandled.
    judging?.catch(() => undefined);
    const site = await guides.siteConfig(apiKey);
    const inSegments = (await judging) ?? new Set<string>();
    const visitor = typeof visitorId === 'string' && visitorId !== '' ? visitorId : undefined;
    // issue #35: a guide's experiment holds its control arm back (`control: true`); goal and experiment stay here.
    const localized = withExperimentArms(forAudience(listed, subject, inSegments), visitor).map((g) => applyTheme(localizeGuide(g, chooseLanguage(g, wanted)), site.theme));
    // issue #17 markdown plugin: steps written in markdown made into building blocks for this visitor (skipped,
    // substituted), before their seen states are applied; as plain text when the site config guideMarkdown is off.
    const all = localized.some(hasMarkdown) ? applyMarkdown(localized, subject, { enabled: site.guideMarkdown }) : localized;
    if (visitor && blockedVisitors?.has(visitor)) {
      throw new HttpError(451, `visitor ${visitor} may not be tracked (451 Unavailable For Legal Reasons)`);
    }
    if (guidelessApiKeys?.has(apiKey)) {
      // guides §5: the agent's guide functions then answer 'This functionality is not supported by your subscription.'
      return { ...(id !== undefined ? { id } : {}), guides: [], lastGuideStepSeen: {}, subscription: { guides: false }, features: features ? await features(apiKey, pageUrl) : [] };
    }
    // An agent that has just identified its visitor names the anonymous one it was: its guide history carries over.
    const states = visitor ? await store.latestStepStates(apiKey, visitor, typeof oldVisitorId === 'string' ? [oldVisitorId] : []) : [];
    const { launcher, guideSettings: settings } = site;
    const { guides: list, lastGuideStepSeen } = applyStepStates(all, states, visitor ?? '');
    // spec: wire-protocol.md — the agent discards a response whose id differs from its request's id.
    return {
      ...(id !== undefined ? { id } : {}),
      guides: list,
      lastGuideStepSeen,
      normalizedUrl: pageUrl,
      features: features ? await features(apiKey, pageUrl) : [],
      ...(assets ? await assets.urls() : {}),
      // guides §3 Launcher config; wire-protocol.md names no field for it, `launcher` is ours. The app's theme goes
      // beside it (`launcher.theme`, ours): the launcher wears it as the steps do.
      ...(launcher !== undefined ? { launcher: launcherWithTheme(launcher, site.theme) } : {}),
      // The app's guide settings (issue #14); `settings` is ours too (shared/guides/readSiteGuideSettings).
      ...(settings !== undefined ? { settings } : {}),
    };
  };

  app.get('/data/guide.json/:apiKey?', async (request: DataRequest) => {
    const apiKey = requireApiKey(request);
    return guideList(apiKey, single(request.query.id, 'id'), parseJzb(request.query.jzb), request.headers['accept-language']);
  });

  // spec: guides §7 — the same request by POST when the URL would be too long or a JWT is set.
  app.post('/data/guide.json/:apiKey?', async (request: DataRequest) => {
    const apiKey = requireApiKey(request);
    return guideList(apiKey, single(request.query.id, 'id'), eventsOfBody(request.body), request.headers['accept-language']);
  });
}

/** Checks a batch, takes it from the app's events quota (guide and poll events count too), then stores it. */
async function storeBatch(
  { store, quotas }: { store: EventStore; quotas?: QuotaStore },
  apiKey: string,
  kind: EventKind,
  payload: unknown,
  source: string | undefined,
): Promise<number> {
  const events = checkEventBatch(payload);
  // issue #31: before anything is stored, so a batch over the quota is refused whole (429 + Retry-After).
  await quotas?.take(apiKey, 'eventsPerMinute', events.length, Date.now());
  return store.insertBatch(apiKey, kind, events, Date.now(), source);
}

/**
 * The beacon's `source` (analytics §7): which sender sent it, `worker` or `pagehide` from this agent; any
 * short name from another agent is kept as given.
 */
function sourceOf(request: DataRequest): string | undefined {
  const source = single(request.query.source, 'source');
  if (source === undefined || source === '') return undefined;
  if (source.length > SERVER_LIMITS.maxSourceLength) {
    throw new HttpError(400, `source is longer than ${SERVER_LIMITS.maxSourceLength} characters`);
  }
  return source;
}

/**
 * The guides whose audience the visitor's guide.json payload is in, each without its `audience` field: its `when`
 * conditions hold for the payload and, when it names a segment, the visitor is in it (`inSegments`, judged before).
 */
export function forAudience(guides: readonly Guide[], subject: SegmentSubject, inSegments: ReadonlySet<string> = new Set()): Guide[] {
  const served: Guide[] = [];
  for (const { audience, ...guide } of guides) {
    const inAudience = !audience || ((!audience.when || matchesConditions(audience.when, subject)) && (audience.segment === undefined || inSegments.has(audience.segment)));
    if (inAudience && forAccount(guide, subject)) served.push(guide);
  }
  return served;
}

/**
 * guides §3 targetAccount (the spec names it; ours to define): a guide for one account, or a list of them, goes
 * only to visitors of that account.
 */
function forAccount(guide: Guide, subject: SegmentSubject): boolean {
  const target = guide.targetAccount;
  if (target === undefined || target === null || target === '') return true;
  const account = subject.accountId;
  if ((typeof account !== 'string' && typeof account !== 'number') || account === '') return false;
  return (Array.isArray(target) ? target : [target]).some((id) => String(id) === String(account));
}
