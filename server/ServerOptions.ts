/**
 * What a reference server is started with (createServer, startServer): storage, folders, the admin token, access,
 * limits and the settings of single sign-on. Its own file, so the server's wiring (createServer.ts) stays one concern.
 */
import type { PasswordCost } from './auth/users/passwords';
import type { SsoOptions } from './auth/sso/ssoOptions';

/**
 * Server configuration. Only `server/main.ts` reads the environment (the variables named below) so that a
 * test's `createServer({ dataDir: 'memory://' })` never picks up a DATABASE_URL from the shell.
 * Relative folders resolve against the current directory; the defaults against the repository root.
 */
export interface ServerOptions {
  /** Port to listen on (env PORT); 0 picks a free one. @default 8080 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** PGlite data folder (env WAYMARK_DATA), or `'memory://'` for an in-memory database. @default '.data/pglite' */
  dataDir?: string;
  /**
   * PostgreSQL URL (env DATABASE_URL): when set, events go to that database through the `pg` package, which
   * must then be installed; `dataDir` is not used. Same SQL as PGlite.
   */
  databaseUrl?: string;
  /** Folder of guide definition files, one guide per `*.json` (env WAYMARK_GUIDES). @default 'server/demo/guides' */
  guidesDir?: string;
  /**
   * Days raw events are kept (env WAYMARK_RETENTION_DAYS; at least 7): older ones are deleted at start and
   * hourly (server/storage/createRetention.ts). @default undefined (kept forever)
   */
  retentionDays?: number;
  /** Segment rules file, re-read when it changes (env WAYMARK_SEGMENT_RULES). @default 'server/demo/segment-rules.json' */
  segmentRulesFile?: string;
  /**
   * The `features` guide.json answers with (analytics §3 event property rules), a JSON array file read on each
   * guide request (env WAYMARK_FEATURES). @default 'server/demo/features.json'
   */
  featuresFile?: string;
  /** Built agent files served at `/`: waymark.js, waymark.worker.js, waymark.overlay.js, chunks. @default 'dist/agent' */
  agentDir?: string;
  /** Built demo app served at `/`, index.html for unknown GET paths that accept HTML. @default 'dist/demo' */
  demoDir?: string;
  /** Built console (issue #14) served at `/console/`. @default 'dist/console' */
  consoleDir?: string;
  /** Log requests with Fastify's logger. @default false */
  logger?: boolean;
  /**
   * Visitor ids whose guide.json requests are answered 451 (env WAYMARK_BLOCKED_VISITORS, comma-separated):
   * how a collector tells the agent to stop tracking a visitor (guides §7, §8). @default []
   */
  blockedVisitors?: readonly string[];
  /**
   * Api keys whose subscription lacks the guides feature (env WAYMARK_GUIDELESS_KEYS, comma-separated):
   * their guide.json says `subscription: { guides: false }` and lists no guides (guides §5). @default []
   */
  guidelessApiKeys?: readonly string[];
  /**
   * The admin token of `/api/*` and the console (env WAYMARK_ADMIN_TOKEN, at least 16 characters). @default the
   * token kept in the data folder (`admin-token`), generated at the first start; one per process for `memory://`
   */
  adminToken?: string;
  /**
   * Time between the summarizer's runs (env WAYMARK_SUMMARY_INTERVAL_MS): how long after a beacon's 2xx its events
   * are in the console's summaries at most, give or take a run (server/summaries/createSummarizer.ts; the console's
   * reads flush first anyway). @default 1000
   */
  summaryIntervalMs?: number;
  /**
   * The app whose guides start as the guide folder's files (env WAYMARK_SEED_APP, `demo-app` in `npm start`):
   * at a start where the database holds no guides for it, the folder's guides are stored for it (their
   * `state`, else public). Other apps read the folder until a guide is saved for them. @default none
   */
  seedApp?: string;
  /**
   * Whom to believe about X-Forwarded-Proto, -Host and -For (env WAYMARK_TRUST_PROXY, read by trustProxyOf; issue
   * #31): Fastify's `trustProxy`. Trusted, they are `request.protocol`, `request.host` and `request.ip`, so behind a
   * TLS-terminating proxy the session cookie is Secure, the console's own origin is https and the login limiter
   * counts each client rather than the proxy. @default false (X-Forwarded-* ignored)
   */
  trustProxy?: boolean | string | string[] | ((address: string, hop: number) => boolean);
  /**
   * Origins of consoles a designer link may name besides this server (env WAYMARK_CONSOLE_ORIGINS, comma-separated;
   * issue #31): the designer signs in nowhere else (server/auth/registerConsoleOrigins.ts). @default []
   */
  consoleOrigins?: readonly string[];
  /**
   * Single sign-on for the console through an OpenID Connect provider (issue #33; env WAYMARK_OIDC_ISSUER,
   * WAYMARK_OIDC_CLIENT_ID, WAYMARK_OIDC_CLIENT_SECRET, WAYMARK_OIDC_DOMAINS, WAYMARK_OIDC_DEFAULT_ROLE; read by
   * server/auth/sso/ssoOptions.ts): checked at start, the provider discovered at the first sign-in.
   * @default undefined (off: email and password, and the admin token)
   */
  sso?: SsoOptions;
  /**
   * Which apps the collector accepts data for (env WAYMARK_APPS; issue #31): `open`, any api key an agent sends;
   * `known`, only apps made in the console or by the API (a settings row: `POST /api/apps`, a PUT of its settings),
   * every other key's /data requests answered 404 with nothing stored (server/ingest/registerKnownApps.ts).
   * @default 'open'
   */
  apps?: 'open' | 'known';
  /**
   * The scrypt cost of new password hashes. For tests only (test/server/testServer.ts, the e2e server): a cheaper one
   * saves their many sign-ups and sign-ins a tenth of a second of CPU each; a hash carries its cost, so it verifies
   * as it was made. Not read from the environment. @default PASSWORD_COST (N = 2^15, r = 8, p = 1)
   */
  passwordCost?: PasswordCost;
  /**
   * For tests only: a dumped data folder of an empty PGlite (test/server/pgliteTemplate.ts) that a `memory://`
   * database starts from instead of running initdb, some seconds of CPU per server start. The schema is still
   * made by the migrations, as on any start.
   */
  memoryTemplate?: Blob;
  /**
   * The clock of the analytics answers that depend on the present (issue #35: which retention weeks have passed);
   * tests pin it. @default Date.now
   */
  analyticsNow?: () => number;
}
