/**
 * Guides that failed on this page (guides §5, §8): content that did not verify or validate marks its guide
 * failed, with why; 30 or more errors a minute drop a guide ('Exceeded error rate limit, dropping guide') and
 * tell the collector a guideNotSeen with reason renderFail; a page rule exception fails it too. guideNotSeen
 * (guides §7) is recorded once per guide and page.
 */
import { ERROR_CODES, fail, type Outcome } from '../../shared/errors';
import type { GuideEventProps, GuideEventType } from '../../shared/events/events';
import type { Guide } from '../../shared/guides/guides';
import { createErrorRateLimit, type ErrorRateLimit } from '../../shared/guides/createErrorRateLimit';
import type { LogLevel } from '../../shared/protocol';
import type { Clock } from '../ports';

export interface GuideHealthOptions {
  clock: Clock;
  log(level: LogLevel, message: string): void;
  record(type: GuideEventType, props: GuideEventProps, url: string): void;
  /** The page the last guide load was for (where a renderFail is told). */
  pageUrl(): string;
}

export interface GuideHealth {
  /** Why a guide failed on this page, when it did. */
  failure(guideId: string): string | undefined;
  /** Fails a guide for the page with `message` (logged, counted) and answers the failure. */
  markFailed(guide: Guide, message: string): Outcome<never>;
  /** Fails a guide without counting an error (a page rule exception: a race, not a broken guide). */
  setFailed(guideId: string, message: string): void;
  /** Counts one error of a guide; the 30th within a minute drops it. */
  countError(guide: Guide): void;
  /** guideNotSeen with `reason`, once per guide and page. */
  notSeen(guide: Guide, stepId: string, reason: string, url: string): void;
}

export function createGuideHealth({ clock, log, record, pageUrl }: GuideHealthOptions): GuideHealth {
  const failed = new Map<string, string>();
  const errorRates = new Map<string, ErrorRateLimit>();
  const notSeenRecorded = new Set<string>();

  const health: GuideHealth = {
    failure: (guideId) => failed.get(guideId),
    setFailed: (guideId, message) => void failed.set(guideId, message),
    markFailed(guide, message) {
      failed.set(guide.id, message);
      log('error', message);
      health.countError(guide);
      return fail(ERROR_CODES.badPayload, message);
    },
    countError(guide) {
      let limit = errorRates.get(guide.id);
      if (!limit) errorRates.set(guide.id, (limit = createErrorRateLimit()));
      const verdict = limit.record(clock.now());
      if (!verdict.exceeded || failed.get(guide.id) === verdict.message) return;
      failed.set(guide.id, verdict.message);
      log('error', `${verdict.message} ${guide.id}`);
      // The spec's renderFail: told to the collector as a guideNotSeen with that reason.
      health.notSeen(guide, guide.steps[0]?.id ?? '', 'renderFail', pageUrl());
    },
    notSeen(guide, stepId, reason, url) {
      if (notSeenRecorded.has(guide.id)) return;
      notSeenRecorded.add(guide.id);
      record('guideNotSeen', { guide_id: guide.id, guide_step_id: stepId, reason }, url);
    },
  };
  return health;
}
