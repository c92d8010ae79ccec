/**
 * The Waymark reference server: collector, guide server, read-back API, and host of the built agent and
 * demo app. Fastify over PGlite (or PostgreSQL with DATABASE_URL).
 */
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from './storage/isDatabaseUnavailable';
import { migrateSchema } from './storage/migrations/MIGRATIONS';
import { checkRetentionDays, startRetention } from './storage/createRetention';
import { ensurePartitions } from './storage/partitions/eventPartitions';
import { createSummarizer } from './summaries/createSummarizer';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createEventStore } from './ingest/createEventStore';
import { createQuotaStore } from './ingest/createQuotaStore';
import { createGuideCatalog } from './guides/createGuideCatalog';
import { createLogStore } from './ingest/createLogStore';
import { createSegmentRules } from './ingest/createSegmentRules';
import { createStaticHandler } from './createStaticHandler';
import { openDatabase } from './storage/openDatabase';
import { registerCors } from './registerCors';
import { registerApiRoutes } from './queries/registerApiRoutes';
import { registerConsoleRoutes } from './queries/registerConsoleRoutes';
import { registerDataRoutes } from './ingest/registerDataRoutes';
import { registerKnownApps } from './ingest/registerKnownApps';
import { registerDesignerPluginRoutes } from './guides/registerDesignerPluginRoutes';
import { registerGuideAssetRoutes } from './guides/registerGuideAssetRoutes';
import { registerLogRoutes } from './ingest/registerLogRoutes';
import { registerMonitorRoutes } from './ingest/registerMonitorRoutes';
import { registerSegmentFlagRoutes } from './ingest/registerSegmentFlagRoutes';
import { SERVER_LIMITS } from './ingest/SERVER_LIMITS';
import { registerParamCheck } from './ingest/registerParamCheck';
import { AUTHENTICATION_REQUIRED, registerAuth } from './auth/registerAuth';
import { createAuthStore } from './auth/createAuthStore';
import { createTokenStore } from './auth/users/createTokenStore';
import { createUserStore } from './auth/users/createUserStore';
import { registerConsoleOrigins } from './auth/registerConsoleOrigins';
import { checkSsoOptions } from './auth/sso/ssoOptions';
import { createSsoStore } from './auth/sso/createSsoStore';
import { registerSsoRoutes } from './auth/sso/registerSsoRoutes';
import { looseApiPrefix } from './looseApiPrefix';
import { createGuideSource } from './guides/createGuideSource';
import { createGuideStore, GUIDE_STATES, type GuideState } from './guides/createGuideStore';
import { registerGuideRoutes } from './guides/registerGuideRoutes';
import { createGuideVersions } from './guides/history/createGuideVersions';
import { registerGuideHistoryRoutes } from './guides/history/registerGuideHistoryRoutes';
import { createAuditLog } from './audit/createAuditLog';
import { registerAuditRoutes } from './audit/registerAuditRoutes';
import { registerPreviewRoutes } from './guides/registerPreviewRoutes';
import { type AppSettings, checkSettings } from './settings/checkSettings';
import { createSettingsStore } from './settings/createSettingsStore';
import { registerSettingsRoutes } from './settings/registerSettingsRoutes';
import { registerRecordingRoutes } from './recordings/registerRecordingRoutes';
import { registerFeaturePreviewRoutes } from './analytics/featurePreviewRoutes';
import { createServedFeatures } from './analytics/servedFeatures';
import { createRuleStore } from './analytics/createRuleStore';
import { registerAnalyticsRoutes } from './analytics/registerAnalyticsRoutes';
import { createRuleBackfill } from './analytics/createRuleBackfill';
import { matchNewEntries } from './analytics/matchNewEntries';
import { registerFunnelRoutes } from './analytics/funnelRoutes';
import { registerExperimentRoutes } from './analytics/experiments/experimentRoutes';
import { createSegmentStore } from './analytics/segments/createSegmentStore';
import { createSegmentJudge } from './analytics/segments/createSegmentJudge';
import { registerSegmentRoutes } from './analytics/segments/registerSegmentRoutes';
import { registerPathsRoutes } from './analytics/pathsRoutes';
import { registerRetentionRoutes } from './analytics/retentionRoutes';
import { resolveAdminToken, type AdminToken } from './auth/resolveAdminToken';
import type { ServerOptions } from './ServerOptions';

export type { ServerOptions } from './ServerOptions';

/** Where the generated admin token is kept: the PGlite data folder; none with PostgreSQL or in memory. */
function adminTokenFolder(options: ServerOptions): string | undefined {
  if (options.databaseUrl) return undefined;
  const dataDir = options.dataDir ?? resolve(repoRoot, '.data/pglite');
  return dataDir.startsWith('memory://') ? undefined : resolve(dataDir);
}


/** A listening server. */
export interface RunningServer {
  /** `http://127.0.0.1:{port}` */
  url: string;
  port: number;
  app: FastifyInstance;
  /** The admin token and where it came from (main.ts prints a generated one once). */
  admin: AdminToken;
  /** Stops listening and closes the database. */
  close(): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Longest a closing server drains the summary queue (SIGTERM: main.ts closes the server). */
const SHUTDOWN_DRAIN_MS = 10_000;
/**
 * Events per drain statement on PGlite: 15-35 ms of its thread (measured 26-70 µs an event, busier machine the
 * slower), the most a beacon then waits behind the summarizer (p95 at half load 28 ms, bench/RESULTS.md).
 * PostgreSQL runs beacons beside a drain, so it takes the summarizer's default (10,000).
 */
const PGLITE_DRAIN_EVENTS = 500;

/** Starts the server and listens. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const admin = resolveAdminToken(options.adminToken, adminTokenFolder(options));
  const app = await createServer({ ...options, adminToken: admin.token });
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ port: options.port ?? 8080, host });
  } catch (err) {
    await app.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 8080);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${urlHost}:${port}`, port, app, admin, close: () => app.close() };
}

/**
 * Builds the server with its database open and schema created, without listening: for `app.inject()` in
 * tests. `app.close()` closes the database.
 */
export async function createServer(options: ServerOptions = {}): Promise<FastifyInstance> {
  const dataDir = options.dataDir ?? resolve(repoRoot, '.data/pglite');
  const db = await openDatabase({
    databaseUrl: options.databaseUrl,
    dataDir: dataDir.startsWith('memory://') ? dataDir : resolve(dataDir),
    memoryTemplate: options.memoryTemplate,
  });

  const app = Fastify({
    logger: options.logger ?? false,
    // A request id unique across collectors and restarts (Fastify's own req-1, req-2... starts again in every
    // process), so the id a 5xx answers names one log line wherever it was written.
    genReqId: () => randomUUID(),
    trustProxy: options.trustProxy ?? false,
    bodyLimit: SERVER_LIMITS.maxBodyBytes,
    http: { maxHeaderSize: SERVER_LIMITS.maxHeaderBytes },
    // Errors Fastify raises before routing (a malformed percent-escape in the URL) get the same JSON shape.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode ?? 400;
      // Cast: the generics of this callback do not reduce to a plain reply in Fastify's types.
      const answer = (reply as unknown as FastifyReply).code(status);
      if (status >= 500) {
        logServerError(error, request, options.logger ?? false);
        return answer.send({ error: 'internal server error', requestId: request.id });
      }
      // Fastify's message quotes the whole URL (a 64 KB jzb included): said in words instead (issue #31).
      const message = error.code === 'FST_ERR_BAD_URL' ? 'the path does not decode: a percent-escape in it is malformed or not UTF-8' : error.message;
      return answer.send({ error: message });
    },
    // Api keys are path parameters; find-my-way's default cap of 100 characters is kept for them.
  });
  app.addHook('onClose', async () => db.close());

  try {
    const retentionProblem = checkRetentionDays(options.retentionDays);
    if (retentionProblem) throw new Error(retentionProblem);
    if (options.apps !== undefined && options.apps !== 'open' && options.apps !== 'known') {
      throw new Error(`WAYMARK_APPS must be open or known; got ${String(options.apps)}`);
    }
    if (options.summaryIntervalMs !== undefined && !(options.summaryIntervalMs >= 10 && options.summaryIntervalMs <= 3_600_000)) {
      throw new Error(`WAYMARK_SUMMARY_INTERVAL_MS must be a number of milliseconds from 10 to 3600000; got ${options.summaryIntervalMs}`);
    }
    const sso = checkSsoOptions(options.sso);
    await migrateSchema(db);
    // This month's and the next month's event partitions, now and every hour (issue #19); ended quota windows
    // deleted on the same round (issue #31).
    await ensurePartitions(db);
    const quotas = createQuotaStore(db);
    const partitionTimer = setInterval(() => {
      void ensurePartitions(db).catch((err: unknown) => console.warn(`event partitions: ${(err as Error).message}`));
      void quotas.prune(Date.now()).catch((err: unknown) => console.warn(`quota windows: ${(err as Error).message}`));
    }, 3_600_000);
    partitionTimer.unref?.();
    app.addHook('onClose', async () => clearInterval(partitionTimer));
    if (options.retentionDays !== undefined) {
      const stopRetention = startRetention(db, options.retentionDays, (message) => console.warn(message));
      app.addHook('onClose', async () => stopRetention());
    }
    // Warnings go to the request log when it is on, else to the console, so a skipped guide file is never silent.
    const warn = options.logger ? (message: string) => app.log.warn(message) : (message: string) => console.warn(message);
    // The console's summaries, brought up to date off the beacons' path (issue #19). At close (after the last
    // request, before the database closes: onClose hooks run last-added first) what is queued is drained for a
    // bounded time; what is left waits for the next drain of any collector.
    const summarizer = createSummarizer(db, {
      intervalMs: options.summaryIntervalMs,
      // PGlite runs one statement at a time: a beacon that arrives during a drain statement waits for all of it.
      ...(options.databaseUrl ? {} : { maxEvents: PGLITE_DRAIN_EVENTS }),
      warn,
      // The analytics' new dictionary entries, matched against their apps' rules (issue #35).
      afterDrain: () => matchNewEntries(db),
    });
    app.addHook('onClose', async () => {
      if (!(await summarizer.stop(SHUTDOWN_DRAIN_MS))) warn('summaries: batches left queued at shutdown, for the next collector to summarize');
    });
    const store = createEventStore(db, { onQueued: (events) => summarizer.queued(events) });
    const logStore = createLogStore(db);

    const guidesDir = resolve(options.guidesDir ?? resolve(repoRoot, 'server/demo/guides'));
    const folder = createGuideCatalog({ dir: guidesDir, warn });
    const guideStore = createGuideStore(db);
    const settingsStore = createSettingsStore(db);
    const guideSource = createGuideSource(guideStore, folder, settingsStore);
    if (options.seedApp) {
      const seeds = (await folder.list()).map(({ state, ...guide }) => ({
        guide,
        state: GUIDE_STATES.includes(state as GuideState) ? (state as GuideState) : 'public',
      }));
      await guideStore.seed(options.seedApp, seeds, Date.now());
      // The demo's settings (form validation on its Settings page) for an app that has none saved yet.
      if (!Object.keys(await settingsStore.get(options.seedApp)).length) {
        const demo = JSON.parse(await readFile(resolve(repoRoot, 'server/demo/settings.json'), 'utf8')) as unknown;
        const problem = checkSettings(demo);
        if (problem) throw new Error(`server/demo/settings.json: ${problem.error}`);
        await settingsStore.put(options.seedApp, demo as AppSettings, Date.now());
      }
    }

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (isDatabaseUnavailable(error)) {
        // Not stored, and said so: the agent sends the beacon again (issue #19).
        request.log.warn(error);
        return reply.code(503).header('Retry-After', String(DATABASE_RETRY_AFTER_S)).send({ error: 'the database is unavailable for now: try again' });
      }
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
      if (status >= 500) {
        // issue #31: the error's own words (a database's quote its SQL and values) stay in the log, written once
        // with the request id the answer carries so an operator can find it.
        logServerError(error, request, options.logger ?? false);
        return reply.code(status).send({ error: 'internal server error', requestId: request.id });
      }
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? `request body is over ${SERVER_LIMITS.maxBodyBytes} bytes (1 MB)`
          : error.message;
      const field = (error as { field?: unknown }).field;
      // A refusal's own headers, as Fastify's default handler sends them (a quota's Retry-After, issue #31).
      const headers = (error as { headers?: Record<string, string> }).headers;
      if (headers) reply.headers(headers);
      return reply.code(status).send(typeof field === 'string' ? { error: message, field } : { error: message });
    });

    registerCors(app);
    // Before every route: the guard reads each matched route's declared access (issues #14, #31, #33).
    const sessions = createAuthStore(db);
    const users = createUserStore(db);
    const auth = registerAuth(app, {
      adminToken: options.adminToken ?? resolveAdminToken(undefined, adminTokenFolder(options)).token,
      store: sessions,
      users,
      tokens: createTokenStore(db),
      passwordCost: options.passwordCost,
      recordingApps: () => settingsStore.viewersSeeRecordings(),
    });
    // No route to read here: a path that reads as /api is 401 without credentials before it is a 404, so that
    // nothing tells an anonymous client which endpoints exist. This only refuses.
    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0];
      const prefix = looseApiPrefix(request.url);
      if (prefix === '/api' && !(await auth.signedIn(request))) return reply.code(401).send({ error: AUTHENTICATION_REQUIRED });
      return reply.code(404).send({ error: prefix ? `no such endpoint: ${request.method} ${path}` : `not found: ${path}` });
    });
    registerConsoleOrigins(app, options.consoleOrigins ?? []);
    // `app.audit`, which every route that changes something calls once the change succeeded, and its reads (issue #33).
    registerAuditRoutes(app, createAuditLog(db));
    // Sign in with SSO (issue #33): its routes are there even when it is off, and say so.
    registerSsoRoutes(app, { config: sso, sso: createSsoStore(db), sessions, users });
    // Every /data and /api route: parameters the database cannot keep are a 400 before any handler (issue #31).
    registerParamCheck(app);
    // Before every /data route: with WAYMARK_APPS=known, an unknown app's requests end at its route's guard (issue #31).
    if (options.apps === 'known') registerKnownApps(app, { has: (apiKey) => settingsStore.has(apiKey) });
    // A guide of the database, else one the app still reads from the guide folder.
    const guideOf = async (apiKey: string, guideId: string) =>
      (await guideStore.get(apiKey, guideId))?.guide ?? (await guideSource.list(apiKey)).find((g) => g.id === guideId);
    const guideStepIds = async (apiKey: string, guideId: string) => (await guideOf(apiKey, guideId))?.steps.map((s) => s.id);
    // Features, pages and segments (issue #35); the segment judge answers guide.json's segment audiences.
    const rules = createRuleStore(db);
    const segmentStore = createSegmentStore(db);
    const segmentJudge = createSegmentJudge({ db, segments: segmentStore, sources: { rules, guideStepIds } });
    const guideAssets = registerGuideAssetRoutes(app, guidesDir);
    registerDesignerPluginRoutes(app, guidesDir);
    registerDataRoutes(app, {
      store,
      guides: guideSource,
      assets: guideAssets,
      blockedVisitors: new Set(options.blockedVisitors ?? []),
      guidelessApiKeys: new Set(options.guidelessApiKeys ?? []),
      // The file's event property rules (the demo's), then the app's console features that carry some (issue #35).
      features: createServedFeatures(db, readFeatures(resolve(options.featuresFile ?? resolve(repoRoot, 'server/demo/features.json')), warn)),
      quotas,
      segments: segmentJudge,
    });
    registerApiRoutes(app, store);
    const guideVersions = createGuideVersions(db);
    registerGuideRoutes(app, { db, guides: guideStore, summaries: summarizer, versions: guideVersions, segmentExists: async (apiKey, id) => (await segmentStore.get(apiKey, id)) !== undefined,
      ruleExists: async (apiKey, kind, id) => (kind === 'feature' ? await rules.getFeature(apiKey, id) : await rules.getPage(apiKey, id)) !== undefined,
    });
    registerGuideHistoryRoutes(app, { guides: guideStore, versions: guideVersions });
    registerPreviewRoutes(app, { guides: guideStore, source: guideSource, assets: guideAssets });
    registerSettingsRoutes(app, settingsStore);
    registerRecordingRoutes(app, { db, settings: settingsStore, quotas });
    registerLogRoutes(app, logStore);
    registerMonitorRoutes(app, { db });
    registerConsoleRoutes(app, {
      db,
      summaries: summarizer,
      guides: {
        countsByApp: () => guideStore.countsByApp(),
        stepIds: guideStepIds,
        all: async (apiKey) => {
          const stored = (await guideStore.list(apiKey)).map((s) => s.guide);
          const ids = new Set(stored.map((g) => g.id));
          return [...stored, ...(await guideSource.list(apiKey)).filter((g) => !ids.has(g.id))];
        },
      },
      stepStates: (apiKey, visitorId) => store.latestStepStates(apiKey, visitorId),
    });
    // Features, pages, funnels, paths, retention and segments, counted over the events already stored (issue #35).
    // A rule's past use is counted by a background backfill (issue #35 "Fast at real volumes"); stopped before the
    // database closes (onClose hooks run last-added first).
    const ruleBackfill = createRuleBackfill(db, { warn });
    app.addHook('onClose', () => ruleBackfill.stop());
    registerAnalyticsRoutes(app, { rules, db, summaries: summarizer, backfill: ruleBackfill, onChange: (apiKey) => segmentJudge.forget(apiKey) });
    registerFeaturePreviewRoutes(app, { db, summaries: summarizer, now: options.analyticsNow });
    registerFunnelRoutes(app, { db, rules, summaries: summarizer, guideStepIds });
    registerExperimentRoutes(app, { db, summaries: summarizer, rules, guideStepIds, guideOf, now: options.analyticsNow });
    registerPathsRoutes(app, { db, rules, summaries: summarizer });
    registerRetentionRoutes(app, { db, summaries: summarizer, rules, guideStepIds, now: options.analyticsNow });
    registerSegmentRoutes(app, { db, segments: segmentStore, judge: segmentJudge, summaries: summarizer, rules, guideStepIds });
    registerSegmentFlagRoutes(
      app,
      createSegmentRules({ file: resolve(options.segmentRulesFile ?? resolve(repoRoot, 'server/demo/segment-rules.json')), warn }),
    );

    const serveStatic = createStaticHandler({
      agentDir: resolve(options.agentDir ?? resolve(repoRoot, 'dist/agent')),
      demoDir: resolve(options.demoDir ?? resolve(repoRoot, 'dist/demo')),
      consoleDir: resolve(options.consoleDir ?? resolve(repoRoot, 'dist/console')),
    });
    app.get('/*', async (request, reply) => {
      // Unknown /data and /api paths are API 404s, never the demo page, however the path is spelled (%61pi, //api,
      // /API, /api;x): the catch-all never answers 2xx for what reads as the admin API.
      if (looseApiPrefix(request.url)) return reply.callNotFound();
      return serveStatic(request, reply);
    });

    await app.ready();
  } catch (err) {
    await app.close();
    throw err;
  }
  return app;
}

/**
 * Logs a 5xx once: to the request log (which carries the request id) when the logger is on, else to the console
 * with the request id and the route, the stack without the error's other fields (a database error's parameters
 * are visitors' data).
 */
function logServerError(error: Error, request: FastifyRequest, logger: boolean): void {
  const where = `${request.method} ${request.routeOptions?.url ?? request.url.split('?')[0]}`;
  if (logger) request.log.error({ err: error }, `internal server error on ${where}`);
  else console.error(`internal server error, request ${request.id} on ${where}: ${error.stack ?? error.message}`);
}

/**
 * The features file as guide.json serves it: re-read on each call (an author edits it and the next guide load
 * sees it); a missing file is no features, a broken one is no features with a warning.
 */
function readFeatures(file: string, warn: (message: string) => void): () => Promise<unknown[]> {
  return async () => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
      warn(`features file ${file} is not a JSON array: ignored`);
    } catch (err) {
      warn(`features file ${file} is not JSON (${(err as Error).message}): ignored`);
    }
    return [];
  };
}
