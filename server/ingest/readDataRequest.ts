/**
 * Reading the parts of a request that several routes share: the api key from the path, single-valued
 * query parameters, the payload of a POST body `{"events": "<jzb>"}` or `{"events": <payload>}`, and the
 * `limit` of the /api lists.
 */
import { HttpError } from '../HttpError';
import { parseJzb } from './parseJzb';
import { SERVER_LIMITS } from './SERVER_LIMITS';

/** The api key at the end of the path, or a 400 saying it is missing. */
export function requireApiKey(request: { params: { apiKey?: string } }): string {
  const apiKey = request.params.apiKey;
  if (!apiKey) throw new HttpError(400, 'apiKey is missing: the path must end with /{apiKey}');
  return apiKey;
}

/** A query parameter given at most once. */
export function single(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw new HttpError(400, `${name} must be given once`);
  return value;
}

/**
 * A POST body as a JSON object: parsed by Fastify (application/json) or, from sendBeacon, JSON sent as text/plain.
 * Not JSON, or not an object: a 400 that quotes `shape` (the body expected), naming `field` when given.
 */
export function jsonObjectOf(body: unknown, shape: string, field?: string): Record<string, unknown> {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new HttpError(400, `body is not JSON: ${shape}`, field);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, shape, field);
  return parsed as Record<string, unknown>;
}

/**
 * The payload of a POST body `{"events": "<jzb>"}` (decoded) or `{"events": <payload>}`, given as parsed
 * JSON or, from sendBeacon, as text/plain JSON. `jwt` and `signingKeyName` are accepted and not checked
 * yet. `shape` describes the expected body in the 400 messages; with it, the messages say it after a colon.
 */
export function eventsOfBody(body: unknown, shape?: string): unknown {
  const expected = shape ?? 'body must be a JSON object {"events": "<jzb>"} or {"events": [...]}';
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new HttpError(400, `body is not JSON: ${shape ?? 'expected {"events": "<jzb>"}'}`);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, expected);
  const events = (parsed as { events?: unknown }).events;
  if (events === undefined) throw new HttpError(400, shape ? `body has no events field: ${shape}` : 'body has no events field');
  return typeof events === 'string' ? parseJzb(events, 'events') : events;
}

/** The `limit` of an /api list: default when absent, capped at the maximum, a 400 when not a positive integer. */
export function listLimit(text: string | undefined): number {
  if (text === undefined) return SERVER_LIMITS.defaultListLimit;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1) throw new HttpError(400, 'limit must be a positive integer');
  return Math.min(limit, SERVER_LIMITS.maxListLimit);
}
