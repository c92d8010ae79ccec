/**
 * Quotas per app on the open collector endpoints (issue #31): what one app may have stored in a window, counted
 * in the database so every collector on it shares the count (STYLE §9). Each request that would store something
 * takes its amount with one atomic upsert, BEFORE anything is stored: the upsert adds the amount only when the
 * total stays within the app's quota (its settings' `quotas`, else DEFAULT_QUOTAS), so a batch that would cross
 * it is refused whole, counted for nothing, and answered 429 with Retry-After (the seconds until its window ends)
 * and a message naming the quota and its value. Windows are fixed: a UTC minute, a UTC day.
 *
 * What is counted is what was offered and accepted: a replay the event store finds already stored (exactly once)
 * counts again, and a batch counted and then not stored (the database failing between) stays counted; both err
 * toward refusing sooner, never toward storing more. Ended windows are deleted by `prune`, hourly.
 */
import type { Database } from '../storage/Database';
import { HttpError } from '../HttpError';
import { DEFAULT_QUOTAS } from '../settings/checkSettings';
import type { AppQuotas } from '../../shared/api';

/** The quotas, by their settings name. */
export type QuotaName = keyof AppQuotas;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Each quota's window, and its words in the 429's message. */
export const QUOTA_WINDOWS: Readonly<Record<QuotaName, { windowMs: number; unit: string; per: string; window: string }>> = {
  eventsPerMinute: { windowMs: MINUTE_MS, unit: 'events', per: 'a minute', window: 'this minute' },
  recordingBytesPerDay: { windowMs: DAY_MS, unit: 'bytes of recording', per: 'a day (UTC)', window: 'today' },
};

/** The counters' table: a migration of server/storage/migrations/MIGRATIONS.ts. */
export const QUOTA_SCHEMA = `
create table if not exists quota_usage (
  api_key text not null,
  quota text not null,
  window_start bigint not null,
  used bigint not null,
  primary key (api_key, quota, window_start)
);
`;

/** The app's quota: its settings' value, else the default ($3). */
const ALLOWED = `coalesce((select (body #>> $2::text[])::bigint from app_settings where api_key = $1::text), $3::bigint)`;

/**
 * Adds $5 to the window's count when the total stays within the quota; no row back when it would not (the
 * conflict's `where` then leaves the row as it was). Atomic on PostgreSQL: the conflicting row is locked while
 * its sum is checked, so two collectors never both take the last of a quota.
 */
const TAKE = `
insert into quota_usage as u (api_key, quota, window_start, used)
select $1::text, $4::text, $6::bigint, $5::bigint where $5::bigint <= ${ALLOWED}
on conflict (api_key, quota, window_start) do update set used = u.used + excluded.used
  where u.used + excluded.used <= ${ALLOWED}
returning u.used`;

/** The quota and the window's count, for the refusal's message. */
const USAGE = `
select ${ALLOWED} as allowed,
       coalesce((select used from quota_usage where api_key = $1 and quota = $4::text and window_start = $5::bigint), 0) as used`;

/** The counters of the open endpoints. */
export interface QuotaStore {
  /**
   * Counts `amount` against the app's `quota` in the window of `now`; throws a QuotaExceededError (429, nothing
   * counted) when the window's total would be over the quota. An amount of 0 counts nothing and passes.
   */
  take(apiKey: string, quota: QuotaName, amount: number, now: number): Promise<void>;
  /** Deletes the counters of windows that ended before `now`; answers how many. */
  prune(now: number): Promise<number>;
}

/** A refusal by a quota: 429 with Retry-After (Fastify's error handling and ours send `headers`). */
export class QuotaExceededError extends HttpError {
  /** The answer's headers: `retry-after`, seconds until the window ends. */
  readonly headers: Record<string, string>;

  constructor(message: string, retryAfterS: number) {
    super(429, message);
    this.name = 'QuotaExceededError';
    this.headers = { 'retry-after': String(retryAfterS) };
  }
}

/** Wraps a database; the schema comes from server/storage/migrations (migrateSchema). */
export function createQuotaStore(db: Database): QuotaStore {
  return {
    async take(apiKey, quota, amount, now) {
      if (amount <= 0) return;
      const { windowMs, unit, per, window } = QUOTA_WINDOWS[quota];
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const path = `{quotas,${quota}}`;
      const fallback = DEFAULT_QUOTAS[quota];
      const taken = await db.query(TAKE, [apiKey, path, fallback, quota, amount, windowStart]);
      if (taken.rows.length) return;
      const { rows } = await db.query<{ allowed: unknown; used: unknown }>(USAGE, [apiKey, path, fallback, quota, windowStart]);
      const allowed = Number(rows[0]?.allowed ?? fallback);
      const used = Number(rows[0]?.used ?? 0);
      const retryAfterS = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
      throw new QuotaExceededError(
        `quota quotas.${quota} of app "${apiKey}" is ${allowed} ${unit} ${per}: ${used} taken ${window}, and ${amount} more would go over it, so nothing of this request was stored: try again in ${retryAfterS} s`,
        retryAfterS,
      );
    },
    async prune(now) {
      // A day's window is the longest: every counter started over a day ago belongs to a window that has ended.
      const { rows } = await db.query('delete from quota_usage where window_start <= $1 returning 1', [now - DAY_MS]);
      return rows.length;
    },
  };
}
