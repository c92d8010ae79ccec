/**
 * spec: guides §4 Throttling — when the next auto-launched guide may show. Pure: the clock is the `now`
 * argument and the calendar is the injectable `startOfNextDay`.
 */
import { isGuideSnoozeReady } from './canRepeat';
import type { Guide, ThrottlingConfig, ThrottlingTimestamps } from '../guides/guides';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** A guard against a runaway day loop on a corrupt config: 100 years of days. */
const MAX_THROTTLING_DAYS = 36_600;

/** Options of {@link nextDisplayTime}. */
export interface NextDisplayTimeOptions {
  /**
   * The first midnight strictly after `ms` (epoch ms in, epoch ms out). Injectable so tests pin a time
   * zone; the worker's default is the visitor's local midnight.
   * @default startOfNextLocalDay
   */
  startOfNextDay?: (ms: number) => number;
}

/** The first local-time midnight strictly after `ms`, by the runtime's time zone (DST-aware via `Date`). */
export function startOfNextLocalDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
}

/** The first UTC midnight strictly after `ms`: a `startOfNextDay` for servers and tests pinned to UTC. */
export function startOfNextUtcDay(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

/**
 * spec: guides §4 Throttling — "Next display time = last dismissal, snooze or final advance of an
 * auto-launched guide plus the interval in minutes or hours; for days, the next midnight plus the days."
 *
 * The base is the latest of `latestDismissedAutoAt`, `latestSnoozedAutoAt` and `finalAdvancedAutoAt`
 * (non-numeric ones are ignored). Minutes and hours are added to it exactly.
 *
 * Days, as read here: the next midnight after the base, then `interval` more midnights, so the interval
 * counts whole days and a visitor always gets at least `interval` days without an auto guide. This is the
 * literal reading ("the next midnight plus the days") and the one that keeps the minute/hour meaning of a
 * minimum gap; the other reading (midnight + interval - 1 days, "not again today") would let a guide
 * dismissed at 23:59 be followed one minute later. Example, UTC, interval 1 day:
 * dismissed 2026-11-22 15:30 -> next midnight 2026-11-23 00:00 -> next display 2026-11-24 00:00.
 * Interval 0 days means the next midnight. Midnights are stepped one at a time with `startOfNextDay`, so
 * a 23- or 25-hour DST day still lands on a midnight. A fractional day count is rounded up.
 *
 * @returns epoch ms, or `null` when throttling is disabled, its interval or unit is unusable, or there is
 * no timestamp to count from.
 */
export function nextDisplayTime(
  config: ThrottlingConfig | undefined,
  timestamps: ThrottlingTimestamps | undefined,
  options: NextDisplayTimeOptions = {},
): number | null {
  if (!config?.enabled) return null;
  const { interval } = config;
  if (typeof interval !== 'number' || !Number.isFinite(interval) || interval < 0) return null;
  const latest = latestThrottlingTimestamp(timestamps);
  if (latest === null) return null;
  // The wire may spell the unit 'Day' or 'days'; ThrottlingConfig spells it 'day'.
  switch (String(config.unit).toLowerCase().replace(/s$/, '')) {
    case 'minute':
      return latest + interval * MINUTE_MS;
    case 'hour':
      return latest + interval * HOUR_MS;
    case 'day': {
      const startOfNextDay = options.startOfNextDay ?? startOfNextLocalDay;
      let at = startOfNextDay(latest);
      for (let day = 0; day < Math.min(Math.ceil(interval), MAX_THROTTLING_DAYS); day++) at = startOfNextDay(at);
      return at;
    }
    default:
      return null;
  }
}

/** The latest numeric throttling timestamp (spec: guides §3 "Throttling timestamps"), or `null`. */
export function latestThrottlingTimestamp(timestamps: ThrottlingTimestamps | undefined): number | null {
  const times = [timestamps?.latestDismissedAutoAt, timestamps?.latestSnoozedAutoAt, timestamps?.finalAdvancedAutoAt].filter(
    (t): t is number => typeof t === 'number' && Number.isFinite(t),
  );
  return times.length ? Math.max(...times) : null;
}

/**
 * spec: guides §4 Auto display — "Override guides (overrideAutoThrottling) and snoozed-ready guides bypass
 * throttling." Names the bypass that applies to `guide` at `now`, or `null` when throttling applies.
 */
export function throttlingBypassOf(guide: Guide, now: number): 'overrideAutoThrottling' | 'snoozedReady' | null {
  if (guide.attributes?.overrideAutoThrottling === true) return 'overrideAutoThrottling';
  if (isGuideSnoozeReady(guide, now)) return 'snoozedReady';
  return null;
}

/**
 * spec: guides §4 Throttling, Auto display — is `guide` held back from auto display at `now`? True when
 * {@link nextDisplayTime} is still ahead (`now < next`; at `next` exactly it may show) and the guide has no
 * bypass ({@link throttlingBypassOf}).
 */
export function isThrottled(
  config: ThrottlingConfig | undefined,
  timestamps: ThrottlingTimestamps | undefined,
  now: number,
  guide: Guide,
  options: NextDisplayTimeOptions = {},
): boolean {
  if (throttlingBypassOf(guide, now)) return false;
  const next = nextDisplayTime(config, timestamps, options);
  return next !== null && now < next;
}
