/**
 * `npm run serve`: the reference server with its settings from the environment.
 * PORT (default 8080), WAYMARK_DATA (PGlite folder), WAYMARK_GUIDES (guide folder), WAYMARK_SEGMENT_RULES
 * (segment rules file), DATABASE_URL
 * (use PostgreSQL instead of PGlite), WAYMARK_LOG=1 (log requests), WAYMARK_BLOCKED_VISITORS (visitor ids
 * answered 451 on guide.json), WAYMARK_FEATURES (event property rules served in guide.json),
 * WAYMARK_GUIDELESS_KEYS (api keys whose subscription lacks guides), WAYMARK_RETENTION_DAYS (raw events older
 * than that are deleted; at least 7), WAYMARK_ADMIN_TOKEN (the admin token of
 * /api/*; else generated at the first start and kept in the data folder), WAYMARK_SEED_APP (the app whose guides
 * start as the guide folder's files, default demo-app; empty for none), WAYMARK_SUMMARY_INTERVAL_MS (time between
 * the summarizer's runs, default 1000), WAYMARK_TRUST_PROXY (`1` behind a reverse proxy: its X-Forwarded-Proto, -Host
 * and -For are believed; or the proxies' addresses; server/trustProxyOf.ts), WAYMARK_CONSOLE_ORIGINS (consoles a
 * designer link may name besides this server, comma-separated origins), WAYMARK_APPS (`known`: data accepted only
 * for apps made in the console or by the API; default `open`), WAYMARK_OIDC_ISSUER, WAYMARK_OIDC_CLIENT_ID and
 * WAYMARK_OIDC_CLIENT_SECRET (single sign-on through that OpenID Connect provider), WAYMARK_OIDC_DOMAINS (email
 * domains let in without an invitation, comma-separated), WAYMARK_OIDC_DEFAULT_ROLE (their role: viewer or editor;
 * default viewer); docs/users-and-roles.md "Single sign-on".
 */
import { consoleOriginsOf } from './auth/registerConsoleOrigins';
import { ssoOptionsOf } from './auth/sso/ssoOptions';
import { startServer } from './createServer';
import { trustProxyOf, type TrustProxy } from './trustProxyOf';

const portText = process.env.PORT;
const port = portText ? Number(portText) : 8080;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got '${portText}'`);
  process.exit(1);
}
let trustProxy: TrustProxy;
let consoleOrigins: string[];
try {
  trustProxy = trustProxyOf(process.env.WAYMARK_TRUST_PROXY);
  consoleOrigins = consoleOriginsOf(process.env.WAYMARK_CONSOLE_ORIGINS);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

const server = await startServer({
  port,
  dataDir: process.env.WAYMARK_DATA || undefined,
  guidesDir: process.env.WAYMARK_GUIDES || undefined,
  segmentRulesFile: process.env.WAYMARK_SEGMENT_RULES || undefined,
  featuresFile: process.env.WAYMARK_FEATURES || undefined,
  databaseUrl: process.env.DATABASE_URL || undefined,
  logger: process.env.WAYMARK_LOG === '1',
  blockedVisitors: listOf(process.env.WAYMARK_BLOCKED_VISITORS),
  guidelessApiKeys: listOf(process.env.WAYMARK_GUIDELESS_KEYS),
  adminToken: process.env.WAYMARK_ADMIN_TOKEN || undefined,
  retentionDays: process.env.WAYMARK_RETENTION_DAYS ? Number(process.env.WAYMARK_RETENTION_DAYS) : undefined,
  seedApp: process.env.WAYMARK_SEED_APP ?? 'demo-app',
  summaryIntervalMs: process.env.WAYMARK_SUMMARY_INTERVAL_MS ? Number(process.env.WAYMARK_SUMMARY_INTERVAL_MS) : undefined,
  trustProxy,
  consoleOrigins,
  // Checked by createServer: anything but open or known stops the start naming the variable.
  apps: (process.env.WAYMARK_APPS || undefined) as 'open' | 'known' | undefined,
  // Checked by createServer (server/auth/sso/ssoOptions.ts): a setting that cannot work stops the start naming it.
  sso: ssoOptionsOf(process.env),
}).catch((err: Error & { code?: string }) => {
  const hint = err.code === 'EADDRINUSE' ? ` (another server holds port ${port}: stop it, or choose another with PORT=8081 npm start)` : '';
  console.error(`Waymark reference server did not start: ${err.message}${hint}`);
  process.exit(1);
});

console.log(`Waymark reference server on http://127.0.0.1:${server.port} (the demo app at /)`);
console.log(`Console: http://127.0.0.1:${server.port}/console/ (log in with the admin token)`);
if (process.env.WAYMARK_OIDC_ISSUER) console.log(`Single sign-on: ${process.env.WAYMARK_OIDC_ISSUER} (register the redirect URI <console origin>/api/sso/callback there)`);
// Printed once: when this start made the token. A kept or configured one is never printed again.
if (server.admin.source === 'generated') {
  const kept = server.admin.file ? ` (kept in ${server.admin.file}; set WAYMARK_ADMIN_TOKEN to choose your own)` : ' (for this process only)';
  console.log(`Admin token${kept}: ${server.admin.token}`);
} else {
  console.log(`Admin token: ${server.admin.source === 'env' ? 'from WAYMARK_ADMIN_TOKEN' : `in ${server.admin.file}`}`);
}
console.log(`Read what was stored: curl -H "Authorization: Bearer <admin token>" 'http://127.0.0.1:${server.port}/api/events?apiKey=demo-app'`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second signal while closing means "now": do not make the user wait for PGlite to flush.
    if (closing) process.exit(1);
    closing = true;
    server.close().then(
      () => process.exit(0),
      (err: Error) => {
        console.error(`error while closing: ${err.message}`);
        process.exit(1);
      },
    );
  });
}

/** A comma-separated setting as a list, blanks dropped. */
function listOf(text: string | undefined): string[] {
  return (text ?? '').split(',').map((v) => v.trim()).filter(Boolean);
}
