/**
 * GET /api/apps/{apiKey}/events: the live view's list. Newest first; with `after`, the events stored after
 * that id, oldest first (the console polls with the `lastId` of its previous answer).
 */
import type { Database } from '../storage/Database';
import { CONSOLE_EVENT_COLUMNS, toConsoleEvent } from './toConsoleEvent';
import type { EventList } from '../../shared/api';

/** Filters of the list. */
export interface EventListFilter {
  apiKey: string;
  /** Only ids above this one, oldest first. */
  after?: number;
  /** Only ids below this one (the next page of a newest-first read). */
  before?: number;
  type?: string;
  visitorId?: string;
  limit: number;
}

/** Lists events on the indexes (api_key, id), (api_key, type, id), (api_key, visitor_id, id). */
export async function queryEvents(db: Database, filter: EventListFilter): Promise<EventList> {
  const params: unknown[] = [filter.apiKey];
  const where = ['api_key = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.type !== undefined) add('type = ?', filter.type);
  if (filter.visitorId !== undefined) add('visitor_id = ?', filter.visitorId);
  if (filter.after !== undefined) add('id > ?', filter.after);
  if (filter.before !== undefined) add('id < ?', filter.before);
  params.push(filter.limit);
  const order = filter.after !== undefined ? 'id asc' : 'id desc';
  const sql = `select ${CONSOLE_EVENT_COLUMNS} from events where ${where.join(' and ')} order by ${order} limit $${params.length}`;
  const { rows } = await db.query<Record<string, unknown>>(sql, params);
  const events = rows.map(toConsoleEvent);
  const lastId = events.reduce((max, e) => Math.max(max, e.id), filter.after ?? 0);
  return { events, lastId };
}
