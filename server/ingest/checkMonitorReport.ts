/**
 * The check of an agent's health report (`POST /data/monitor`, shared/wire/monitorReport.ts) before it is stored:
 * strict, so a report the console would misread is refused with a 400 that names the field and the shape expected,
 * never half-stored. Pure: the route hands it the body as received.
 */
import { MONITOR_COUNT_NAMES, type MonitorCounts, type MonitorReport } from '../../shared/wire/monitorReport';
import { HttpError } from '../HttpError';
import { jsonObjectOf } from './readDataRequest';

/** Limits of a report's fields. */
export const MONITOR_LIMITS = {
  /** Largest body accepted, in bytes: a report is about 300 bytes; anything near this is not one. */
  maxBodyBytes: 16 * 1024,
  maxVersionLength: 64,
  maxIdLength: 256,
  /** Largest count: a page's agent counting more in 5 minutes is a bug, not traffic. */
  maxCount: 1_000_000_000,
} as const;

/** The body the route expects, quoted in every refusal. */
export const MONITOR_SHAPE =
  'body must be a JSON object {"version": string, "visitorId": string, "sessionId": string, "from": epoch ms, "to": epoch ms, ' +
  `"counts": {${MONITOR_COUNT_NAMES.map((name) => `"${name}"?`).join(', ')}: integers from 0 to ${MONITOR_LIMITS.maxCount}}}`;

const REPORT_KEYS: ReadonlyArray<keyof MonitorReport> = ['version', 'visitorId', 'sessionId', 'from', 'to', 'counts'];

/** The body (parsed JSON, or JSON text as sendBeacon sends it) as a report; a 400 naming the field when it is not one. */
export function checkMonitorReport(body: unknown): MonitorReport {
  const report = jsonObjectOf(body, MONITOR_SHAPE, 'body');
  const unknown = Object.keys(report).filter((key) => !(REPORT_KEYS as readonly string[]).includes(key));
  if (unknown.length) throw refusal(unknown[0], `unknown field${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`);
  const version = text(report, 'version', MONITOR_LIMITS.maxVersionLength);
  const visitorId = text(report, 'visitorId', MONITOR_LIMITS.maxIdLength);
  const sessionId = text(report, 'sessionId', MONITOR_LIMITS.maxIdLength);
  const from = epochMs(report, 'from');
  const to = epochMs(report, 'to');
  if (from > to) throw refusal('from', `from (${from}) must not be after to (${to})`);
  return { version, visitorId, sessionId, from, to, counts: countsOf(report.counts) };
}

/** A string of 1 to `max` characters without NUL (PostgreSQL's text refuses it). */
function text(report: Record<string, unknown>, name: string, max: number): string {
  const value = report[name];
  if (typeof value !== 'string' || value === '') throw refusal(name, `${name} must be a non-empty string`);
  if (value.length > max) throw refusal(name, `${name} must be at most ${max} characters (got ${value.length})`);
  if (value.includes('\u0000')) throw refusal(name, `${name} must not contain the NUL character`);
  return value;
}

function epochMs(report: Record<string, unknown>, name: string): number {
  const value = report[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw refusal(name, `${name} must be epoch milliseconds, a non-negative integer (got ${shown(value)})`);
  }
  return value;
}

/** The seven counts, a missing one 0; an unknown key refused by name. */
function countsOf(value: unknown): MonitorCounts {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw refusal('counts', 'counts must be an object');
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !(MONITOR_COUNT_NAMES as readonly string[]).includes(key));
  if (unknown.length) {
    throw refusal(`counts.${unknown[0]}`, `counts has unknown key${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`);
  }
  const counts = {} as MonitorCounts;
  for (const name of MONITOR_COUNT_NAMES) {
    const n = Object.hasOwn(given, name) ? given[name] : 0;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MONITOR_LIMITS.maxCount) {
      throw refusal(`counts.${name}`, `counts.${name} must be an integer from 0 to ${MONITOR_LIMITS.maxCount} (got ${shown(n)})`);
    }
    counts[name] = n;
  }
  return counts;
}

/** A value as a refusal quotes it: JSON, cut to 40 characters. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? 'nothing';
  return json.length > 40 ? `${json.slice(0, 39)}…` : json;
}

/** A 400 naming `field`: what is wrong, then the shape expected. */
function refusal(field: string, problem: string): HttpError {
  return new HttpError(400, `${problem}: ${MONITOR_SHAPE}`, field);
}
