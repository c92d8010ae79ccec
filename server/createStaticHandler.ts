/**
 * Serves the built agent (dist/agent) and the demo app (dist/demo) at the site root, with the demo's
 * index.html as the fallback of client-side routes, and the console (dist/console) under /console/ with its
 * own fallback. Missing builds answer 503 with what to run.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { extname, join, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The two folders served at `/`. */
export interface StaticHandlerOptions {
  /** Built agent files: waymark.js, waymark.worker.js, waymark.overlay.js, chunks. Looked up first. */
  agentDir: string;
  /** Built demo app; its index.html answers unknown GET paths that accept HTML. */
  demoDir: string;
  /** Built console app, served under /console/; its index.html answers the console's client-side routes. */
  consoleDir: string;
}

/**
 * The console's page headers: its own scripts and styles only (uPlot and React set styles through the DOM),
 * never framed (clickjacking of the admin actions), no referrer to other sites.
 */
const CONSOLE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** Names the agent build produces; asked for before the build exists, they get the 503 rather than a 404. */
const AGENT_FILE = /^waymark[\w.-]*\.m?js(?:\.map)?$/;

const NOT_BUILT = 'Run `npm run build` (or `npm start`, which builds), then reload.';

/** Returns the route handler for GET/HEAD requests no API route took. */
export function createStaticHandler(options: StaticHandlerOptions) {
  return async function serveStatic(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const segments = pathSegments(request.url);
    if (segments === null) return reply.code(400).send({ error: 'malformed URL path' });
    // Dotfiles (.env, .git) are never part of a build: not found, whatever is on disk.
    if (segments.some((s) => s.startsWith('.'))) return notFound(request, reply);
    if (segments[0] === 'console') return serveConsole(request, reply, segments.slice(1));

    const agentFile = await findFile(options.agentDir, segments);
    if (agentFile) {
      // The overlay is a module imported by the shim: cross-origin module loads need CORS, and a host under
      // cross-origin isolation (COEP) needs CORP to load any of the agent's files.
      reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
      // The host's own measurements (Resource Timing: sizes, and whether its browser's cache served a file) see
      // what the agent costs it, as they would for a file of its own origin.
      reply.header('timing-allow-origin', '*');
      // A cross-origin isolated host (COOP + COEP require-corp) starts a dedicated worker only from a script that
      // says require-corp itself (issue #16); without it the agent falls back to the main thread.
      if (segments.at(-1) === 'waymark.worker.js') reply.header('cross-origin-embedder-policy', 'require-corp');
      return sendFile(request, reply, agentFile, (await isCurrentVersion(options.agentDir, request.url)) ? IMMUTABLE : undefined);
    }
    if (segments.length === 1 && AGENT_FILE.test(segments[0]) && !(await isDirectory(options.agentDir))) {
      return reply.code(503).send({ error: `The Waymark agent is not built: ${options.agentDir} is missing. ${NOT_BUILT}` });
    }

    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (!(await isDirectory(options.demoDir))) {
      const message = `The demo app is not built: ${options.demoDir} is missing. ${NOT_BUILT}`;
      if (wantsHtml) return reply.code(503).type('text/html; charset=utf-8').send(notBuiltPage(message));
      return reply.code(503).send({ error: message });
    }
    const demoFile = await findFile(options.demoDir, segments.length ? segments : ['index.html']);
    if (demoFile) return sendFile(request, reply, demoFile);
    // SPA fallback: client-side routes such as /reports are the demo's index.html.
    if (wantsHtml) {
      const index = await findFile(options.demoDir, ['index.html']);
      if (index) return sendFile(request, reply, index);
    }
    return notFound(request, reply);
  };

  async function serveConsole(request: FastifyRequest, reply: FastifyReply, rest: string[]): Promise<unknown> {
    const [path, query] = splitQuery(request.url);
    if (path === '/console') return reply.redirect(`/console/${query}`, 308);
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (!(await isDirectory(options.consoleDir))) {
      const message = `The console is not built: ${options.consoleDir} is missing. ${NOT_BUILT}`;
      if (wantsHtml) return reply.code(503).type('text/html; charset=utf-8').send(notBuiltPage(message));
      return reply.code(503).send({ error: message });
    }
    const file = await findFile(options.consoleDir, rest.length ? rest : ['index.html']);
    // Client-side routes (/console/apps/x/events) are the console's index.html.
    const page = file ?? (wantsHtml ? await findFile(options.consoleDir, ['index.html']) : null);
    if (!page) return notFound(request, reply);
    reply.headers(CONSOLE_HEADERS);
    // An invitation's token is in its URL (issue #33): no request of that page names it, not even to this server.
    if (rest[0] === 'invitation') reply.header('referrer-policy', 'no-referrer');
    // Vite names the files under assets/ by their content hash: they never change under one name.
    if (rest[0] === 'assets' && file) return sendFile(request, reply, page, 'public, max-age=31536000, immutable');
    return sendFile(request, reply, page);
  }
}

/** For files whose URL changes with their contents: a year, never revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Whether `url` asks for the agent build's own version of a file (`?v=`, the hash scripts/build.mjs writes to
 * the agent folder's .version and into waymark.js): then what is served under it never changes. Read per request,
 * not kept: a rebuild in place (which removes the file first) must never have new contents cached under an old
 * version. Any other `v`, or none, is revalidated as before.
 */
async function isCurrentVersion(agentDir: string, url: string): Promise<boolean> {
  const asked = new URLSearchParams(splitQuery(url)[1]).get('v');
  if (!asked) return false;
  try {
    return asked === (await readFile(join(agentDir, '.version'), 'utf8')).trim();
  } catch {
    return false;
  }
}

/** The path of a URL and its query (with its '?', or ''). */
function splitQuery(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ error: `not found: ${request.url.split('?')[0]}` });
}

/**
 * The decoded, non-empty segments of a URL path, or null when the path cannot be served safely: a bad
 * percent-escape, a NUL, a backslash, or a `.` or `..` segment (path traversal, including `%2e%2e` and
 * `..%2f`, which only appear after decoding).
 */
function pathSegments(url: string): string[] | null {
  const path = url.split(/[?#]/)[0];
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  return segments.some((s) => s === '.' || s === '..') ? null : segments;
}

/** A regular file found under a served folder: its real path, and its size and time (the ETag's). */
interface FoundFile {
  path: string;
  info: Stats;
}

/** The regular file under root, or null. Symlinks that lead outside root do not count. */
async function findFile(root: string, segments: string[]): Promise<FoundFile | null> {
  try {
    const realRoot = await realpath(root);
    const file = await realpath(join(realRoot, ...segments));
    if (!file.startsWith(realRoot + sep)) return null;
    const info = await stat(file);
    if (info.isFile()) return { path: file, info };
    if (info.isDirectory()) return findFile(root, [...segments, 'index.html']);
    return null;
  } catch {
    return null;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Always revalidated by default (the agent and demo are rebuilt in place during development), against a
 * validator: the file's size and modification time as a weak ETag. A returning visitor's browser then gets
 * 304 for an agent file it holds, and keeps the code V8 compiled for it (Chromium caches compiled code only
 * for scripts its HTTP cache serves): the overlay chunk's React is otherwise compiled again on every page.
 */
async function sendFile(request: FastifyRequest, reply: FastifyReply, { path: file, info }: FoundFile, cacheControl = 'no-cache'): Promise<unknown> {
  const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  reply
    .type(CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream')
    .header('cache-control', cacheControl)
    .header('etag', etag)
    .header('x-content-type-options', 'nosniff');
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.send(await readFile(file));
}

/** Whether an If-None-Match header names `etag` (weak comparison, a list or `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

function notBuiltPage(message: string): string {
  const escaped = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/`/g, '');
  return `<!doctype html><meta charset="utf-8"><title>Waymark: not built</title><p>${escaped}</p>\n`;
}
