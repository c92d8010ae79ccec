/**
 * The first check of every /data and /api request (issue #31): its path parameters and query values, as the router
 * and the query parser decoded them, must be text the database can keep (no U+0000, no lone surrogate: textFault),
 * and the query's percent-escapes must decode as UTF-8 (the query parser otherwise keeps a broken escape as its
 * raw text, silently). A request that fails is a 400 naming the parameter before any handler or query runs; a path
 * whose escapes do not decode is refused earlier by the router (the server's frameworkErrors).
 *
 * Decided on the route the router matched (STYLE §9), never on the URL text: `request.routeOptions.url` is the
 * pattern, and `request.params` hold exactly what the handler will read.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../HttpError';
import { SERVER_LIMITS } from './SERVER_LIMITS';
import { textFault } from './textFault';

/** Route patterns whose parameters are checked: what agents send, and the API. */
const isCheckedRoute = (pattern: string) => /^\/(?:data|api)(?:\/|$)/.test(pattern);

/** Adds the check as an onRequest hook: it covers every route, registered before or after it. */
export function registerParamCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const pattern = request.routeOptions.url;
    if (pattern === undefined || !isCheckedRoute(pattern)) return;
    checkValues(request.params);
    checkQueryEscapes(request.url);
    checkValues(request.query);
  });
}

/** Each decoded value (a repeated query parameter is an array of them) is keepable text; an api key is short. */
function checkValues(values: unknown): void {
  if (typeof values !== 'object' || values === null) return;
  for (const [name, value] of Object.entries(values)) {
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text !== 'string') continue;
      const fault = textFault(text);
      if (fault) throw new HttpError(400, `${name} is not valid text: it ${fault}`, name);
      if (name === 'apiKey' && text.length > SERVER_LIMITS.maxApiKeyLength) {
        throw new HttpError(400, `apiKey is longer than ${SERVER_LIMITS.maxApiKeyLength} characters`, name);
      }
    }
  }
}

/**
 * Every name and value of the query decodes as percent-escaped UTF-8 (`+` is a space, as the query parser reads
 * it). Read from the request target because the parsed query no longer tells a broken escape from text.
 */
function checkQueryEscapes(url: string): void {
  const start = url.indexOf('?');
  if (start < 0) return;
  for (const pair of url.slice(start + 1).split('&')) {
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const name = decoded(rawName);
    if (name === undefined) throw new HttpError(400, 'a query parameter name is not valid percent-encoded UTF-8');
    if (eq >= 0 && decoded(pair.slice(eq + 1)) === undefined) {
      throw new HttpError(400, `${name} is not valid percent-encoded UTF-8`, name);
    }
  }
}

function decoded(text: string): string | undefined {
  if (!text.includes('%')) return text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
