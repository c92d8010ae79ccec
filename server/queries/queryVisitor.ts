/**
 * GET /api/apps/{apiKey}/visitors/{visitorId}: one visitor's summary, sessions and latest events.
 */
import type { Database } from '../storage/Database';
import { CONSOLE_EVENT_COLUMNS, toConsoleEvent } from './toConsoleEvent';
import { toConsoleVisitor } from './queryVisitors';
import type { VisitorDetail } from '../../shared/api';

/** Events of a visitor's timeline. */
const TIMELINE_EVENTS = 200;
/** Sessions of a visitor's timeline, latest first. */
const TIMELINE_SESSIONS = 100;

/** The visitor, or undefined when the app has no events of that visitor. */
export async function queryVisitor(db: Database, apiKey: string, visitorId: string): Promise<VisitorDetail | undefined> {
  const visitor = await db.query<Record<string, unknown>>(
    'select visitor_id, account_id, first_seen, last_seen, events, metadata from console_visitors where api_key = $1 and visitor_id = $2',
    [apiKey, visitorId],
  );
  if (!visitor.rows[0]) return undefined;
  const { visitorId: id, accountId, metadata, firstSeen, lastSeen } = toConsoleVisitor(visitor.rows[0]);
  const [sessions, events] = await Promise.all([
    db.query<Record<string, unknown>>(
      `select session_id, start_time, end_time, events, pages from console_sessions
       where api_key = $1 and visitor_id = $2 order by start_time desc limit ${TIMELINE_SESSIONS}`,
      [apiKey, visitorId],
    ),
    db.query<Record<string, unknown>>(
      `select ${CONSOLE_EVENT_COLUMNS} from events where api_key = $1 and visitor_id = $2 order by id desc limit ${TIMELINE_EVENTS}`,
      [apiKey, visitorId],
    ),
  ]);
  return {
    visitorId: id,
    accountId,
    metadata,
    firstSeen,
    lastSeen,
    sessions: sessions.rows.map((row) => ({
      sessionId: String(row.session_id),
      start: Number(row.start_time),
      end: Number(row.end_time),
      events: Number(row.events),
      pages: Number(row.pages),
    })),
    events: events.rows.map(toConsoleEvent),
  };
}
