/**
 * The agent's health reports (shared/wire/monitorReport.ts) and the console's Health view over them:
 * - `POST /data/monitor?apiKey=`: one report as JSON (application/json, or text/plain from sendBeacon), at most
 *   16 KB, checked field by field (checkMonitorReport); answered `{stored: 1}` once the row is committed. Open,
 *   with CORS, like every /data route (registerCors).
 * - `GET /api/apps/{apiKey}/health?from&to&bucket` (behind the /api guard of auth/registerAuth): the reports'
 *   totals, versions and series over the range, and the error log's messages (queries/queryHealth).
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../storage/Database';
import { accessOf } from '../auth/routeAccess';
import { HttpError } from '../HttpError';
import { checkMonitorReport, MONITOR_LIMITS, MONITOR_SHAPE } from './checkMonitorReport';
import { createMonitorStore } from './createMonitorStore';
import { parseRange } from '../queries/parseRange';
import { queryHealth } from '../queries/queryHealth';
import { queryParam, type ConsoleQuery } from '../queries/queryParams';

/** What the health routes use. */
export interface MonitorRoutesOptions {
  db: Database;
  /** The clock of `received_at` and of default ranges. @default Date.now */
  now?: () => number;
}

type DataRequest = FastifyRequest<{ Querystring: ConsoleQuery }>;
type AppRequest = FastifyRequest<{ Params: { apiKey: string }; Querystring: ConsoleQuery }>;

/** Registers `POST /data/monitor` and `GET /api/apps/:apiKey/health`. */
export function registerMonitorRoutes(app: FastifyInstance, { db, now = Date.now }: MonitorRoutesOptions): void {
  const store = createMonitorStore(db);

  // Its own scope: the body is read as text whichever of the two types it came as (sendBeacon sends a string as
  // text/plain, a preflighted fetch as application/json) and refused over 16 KB with this route's limit named.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string', bodyLimit: MONITOR_LIMITS.maxBodyBytes }, (_request, body, done) =>
      done(null, body),
    );
    scope.setErrorHandler((error: FastifyError) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        throw new HttpError(413, `health report is over ${MONITOR_LIMITS.maxBodyBytes} bytes (16 KB): ${MONITOR_SHAPE}`, 'body');
      }
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        throw new HttpError(400, `body must be JSON sent as application/json or text/plain: ${MONITOR_SHAPE}`, 'body');
      }
      // The server's handler: 503 while the database is away, the shapes of every other error.
      throw error;
    });
    scope.post('/data/monitor', async (request: DataRequest) => {
      const apiKey = queryParam(request.query, 'apiKey');
      if (!apiKey) throw new HttpError(400, 'apiKey is required: /data/monitor?apiKey=...', 'apiKey');
      const report = checkMonitorReport(request.body);
      await store.insert(apiKey, report, now());
      return { stored: 1 };
    });
  });

  app.get('/api/apps/:apiKey/health', accessOf('viewer'), async (request: AppRequest) => queryHealth(db, request.params.apiKey, parseRange(request.query, now())));
}
