/**
 * Session rules (spec: analytics §3 Session info, §4 Session, §9 "Session inactivity 30 minutes; session id
 * 16 characters"): when a session continues and when a new one starts. Pure: the clock and the random
 * source come in as `now` and `random`.
 */
import { SESSION_ID_LENGTH, SESSION_INACTIVITY_MS } from '../constants';
import { isAnonymousVisitorId, randomAlphanumeric } from './identityRules';

/** The stored session: its id, the last activity (epoch ms) and the visitor it belongs to. */
export interface SessionRecord {
  sessionId: string;
  lastActivityAt: number;
  visitorId: string;
}

/** Why {@link nextSession} kept or renewed the session. */
export type SessionReason = 'none' | 'first' | 'inactivity' | 'visitorChanged';

/** What {@link nextSession} decides: the record to store, and whether its session id is new. */
export interface SessionDecision {
  record: SessionRecord;
  isNew: boolean;
  /** `'none'` when the session continues. */
  reason: SessionReason;
}

/** A new session id: 16 alphanumerics drawn from `random` (spec: analytics §4, §9). */
export function createSessionId(random: () => number): string {
  return randomAlphanumeric(SESSION_ID_LENGTH, random);
}

/**
 * The session after activity at `now` by `visitorId` (spec: analytics §4). A new session starts when there
 * is no record (`'first'`), when `now - lastActivityAt >= 30 min` (`'inactivity'`, checked first), or when
 * the record's visitor is known (non-anonymous) and differs from `visitorId` (`'visitorChanged'`), which
 * covers one known visitor replacing another and a known visitor logging out to a new anonymous id.
 * An anonymous visitor becoming known keeps the session: it is the same person signing in, and the remap
 * joins the anonymous history to the known visitor, so splitting the session would cut one visit in two.
 * One anonymous id replacing another also keeps it (the spec only names known ids).
 * Every call is activity: the returned record has `lastActivityAt = now` and the new visitor. A clock
 * that went backwards (negative gap) counts as no inactivity, and the earlier `now` is stored so a later
 * correct clock measures from it rather than from a time that has not happened.
 */
export function nextSession(
  record: SessionRecord | null,
  now: number,
  visitorId: string,
  random: () => number,
): SessionDecision {
  let reason: SessionReason = 'none';
  if (record === null) reason = 'first';
  else if (now - record.lastActivityAt >= SESSION_INACTIVITY_MS) reason = 'inactivity';
  else if (!isAnonymousVisitorId(record.visitorId) && record.visitorId !== visitorId) reason = 'visitorChanged';

  const isNew = reason !== 'none';
  const sessionId = isNew || record === null ? createSessionId(random) : record.sessionId;
  return { record: { sessionId, lastActivityAt: now, visitorId }, isNew, reason };
}
