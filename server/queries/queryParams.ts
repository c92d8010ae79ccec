/**
 * Reading the console's query parameters: each one given at most once, numbers checked, and every refusal a
 * 400 `{ error, field }` naming the parameter (docs/console-api.md).
 */
import { HttpError } from '../HttpError';

/** A parsed query string as Fastify gives it. */
export type ConsoleQuery = Record<string, string | string[] | undefined>;

/** The most rows a console list answers with. */
export const MAX_LIST_LIMIT = 500;
/** Rows a console list answers with when `limit` is absent. */
export const DEFAULT_LIST_LIMIT = 100;

/** The parameter's value, undefined when absent or empty; a 400 when given twice. */
export function queryParam(query: ConsoleQuery, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new HttpError(400, `${name} must be given once`, name);
  return value === '' ? undefined : value;
}

/** A non-negative integer parameter (epoch ms, ids), or undefined when absent. */
export function integerParam(query: ConsoleQuery, name: string, what = 'a non-negative integer'): number | undefined {
  const text = queryParam(query, name);
  if (text === undefined) return undefined;
  const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value)) throw new HttpError(400, `${name} must be ${what} (got '${text.slice(0, 40)}')`, name);
  return value;
}

/** `limit`: 1 to `max` (`MAX_LIST_LIMIT` for the lists), default `fallback`. */
export function limitParam(query: ConsoleQuery, max = MAX_LIST_LIMIT, fallback = DEFAULT_LIST_LIMIT): number {
  const limit = integerParam(query, 'limit', `an integer from 1 to ${max}`) ?? fallback;
  if (limit < 1 || limit > max) throw new HttpError(400, `limit must be an integer from 1 to ${max}`, 'limit');
  return limit;
}

/** `q`, a search text of at most 200 characters. */
export function searchParam(query: ConsoleQuery): string | undefined {
  const q = queryParam(query, 'q');
  if (q !== undefined && q.length > 200) throw new HttpError(400, 'q must be at most 200 characters', 'q');
  return q;
}

/** `q` as a LIKE pattern matching it anywhere (its own % _ \ taken literally). */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
