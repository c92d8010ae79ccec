/**
 * The audit trail's recorder and its reads (issue #33; docs/users-and-roles.md "Audit trail"):
 * - `app.audit(request, change)`: what a route calls once its change succeeded; the actor and the address come
 *   from the request (its caller, and `request.ip` as the server's trustProxy setting gives it);
 * - `GET /api/audit` (admin): entries newest first, `{ entries, next? }`, filtered by apiKey, actor, action, from,
 *   to, paged by `limit` (default 100, at most 1000) and `before` (the previous page's `next`);
 * - `GET /api/audit.csv` (admin): the same filters, as CSV.
 * Only reads are routed here: no route updates or deletes an entry.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditPage } from '../../shared/api/audit';
import { accessOf } from '../auth/routeAccess';
import { HttpError } from '../HttpError';
import { integerParam, limitParam, queryParam, type ConsoleQuery } from '../queries/queryParams';
import { auditActorOf } from './auditActorOf';
import { auditCsv } from './auditCsv';
import type { AuditActor, AuditChange, AuditFilter, AuditLog } from './createAuditLog';

/** Entries a page holds at most, and when `limit` is absent. */
export const MAX_AUDIT_PAGE = 1000;
export const DEFAULT_AUDIT_PAGE = 100;
const MAX_FILTER_LENGTH = 320;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Records a change that succeeded, by the request's caller (server/audit); `actor` names who acted on an open
     * route (a sign-in, an invitation's acceptance), where the request has no caller.
     */
    audit(request: FastifyRequest, change: AuditChange, actor?: AuditActor): Promise<void>;
  }
}

/** Decorates `app` with `audit` and registers the audit reads. */
export function registerAuditRoutes(app: FastifyInstance, log: AuditLog, now: () => number = Date.now): void {
  app.decorate('audit', async (request: FastifyRequest, change: AuditChange, actor?: AuditActor) => {
    await log.append({ ...change, at: now(), actor: actor ?? auditActorOf(request), address: request.ip });
  });

  const read = async (request: FastifyRequest<{ Querystring: ConsoleQuery }>, max: number): Promise<AuditPage> => {
    const filter = auditFilter(request.query, max);
    const entries = await log.list({ ...filter, limit: filter.limit + 1 });
    const page = entries.slice(0, filter.limit);
    return { entries: page, ...(entries.length > filter.limit ? { next: page[page.length - 1]!.id } : {}) };
  };

  app.get('/api/audit', accessOf('admin'), async (request: FastifyRequest<{ Querystring: ConsoleQuery }>) => read(request, MAX_AUDIT_PAGE));

  app.get('/api/audit.csv', accessOf('admin'), async (request: FastifyRequest<{ Querystring: ConsoleQuery }>, reply) => {
    const { entries, next } = await read(request, MAX_AUDIT_PAGE);
    if (next !== undefined) reply.header('x-next-before', String(next));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="audit.csv"')
      .send(auditCsv(entries));
  });
}

const KNOWN = new Set(['apiKey', 'actor', 'action', 'from', 'to', 'limit', 'before']);

/** The query's filters, or a 400 naming the parameter. */
export function auditFilter(query: ConsoleQuery, max: number): AuditFilter {
  for (const name of Object.keys(query)) {
    if (!KNOWN.has(name)) throw new HttpError(400, `unknown parameter ${name}: apiKey, actor, action, from, to, limit, before`, name);
  }
  const text = (name: string) => {
    const value = queryParam(query, name);
    if (value !== undefined && value.length > MAX_FILTER_LENGTH) throw new HttpError(400, `${name} must be at most ${MAX_FILTER_LENGTH} characters`, name);
    return value;
  };
  const from = integerParam(query, 'from', 'epoch ms');
  const to = integerParam(query, 'to', 'epoch ms');
  if (from !== undefined && to !== undefined && to <= from) throw new HttpError(400, 'to must be after from', 'to');
  const before = integerParam(query, 'before', "an entry id (the previous page's next)");
  const values = { apiKey: text('apiKey'), actor: text('actor'), action: text('action'), from, to, before };
  return {
    ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)),
    limit: limitParam(query, max, DEFAULT_AUDIT_PAGE),
  };
}
