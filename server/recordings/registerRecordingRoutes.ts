/**
 * Session recording on the collector and the console's API (issue #18, docs/recording.md):
 * - `GET /data/recording.json/{apiKey}`: the app's recording switch and sample rate, for the agent.
 * - `POST /data/recording/{apiKey}?v&ct`: one chunk, zlib of its JSON (application/octet-stream); stored once,
 *   and only while the app's recording is on when it arrives, within the app's recording bytes a day (issue #31);
 *   answered after it is committed.
 * - `GET /api/apps/{apiKey}/recordings?visitorId&limit` and `GET /api/apps/{apiKey}/recordings/{id}` (behind the
 *   /api guard of auth/registerAuth): the list, and one recording's events from a full snapshot on with the
 *   marks of its session's clicks. Editors and admins read them; viewers only when the app's settings say
 *   `recording.viewersSeeRecordings` (issue #33), else 403 naming that setting.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../storage/Database';
import type { RecordingDetail, RecordingList } from '../../shared/api';
import { HttpError } from '../HttpError';
import { limitParam, queryParam, type ConsoleQuery } from '../queries/queryParams';
import { requireApiKey } from '../ingest/readDataRequest';
import type { QuotaStore } from '../ingest/createQuotaStore';
import type { SettingsStore } from '../settings/createSettingsStore';
import { accessOf } from '../auth/routeAccess';
import { withDefaults } from '../settings/checkSettings';
import { checkRecordingChunk, RECORDING_LIMITS } from './checkRecordingChunk';
import { createRecordingStore } from './createRecordingStore';
import { fullSnapshotFirst } from './fullSnapshotFirst';
import { queryRecordingMarks } from './queryRecordingMarks';

/** How long a browser may keep an app's recording.json answer (seconds). */
export const RECORDING_CONFIG_MAX_AGE_S = 60;

/** What the recording routes use. */
export interface RecordingRoutesOptions {
  db: Database;
  settings: SettingsStore;
  /** The app's recording-bytes-per-day quota, taken before a chunk is stored (issue #31). @default none */
  quotas?: QuotaStore;
  /** The clock of `received_at`. @default Date.now */
  now?: () => number;
}

type DataRequest = FastifyRequest<{ Params: { apiKey?: string } }>;
type AppRequest<P = object> = FastifyRequest<{ Params: { apiKey: string } & P; Querystring: ConsoleQuery }>;

/** Registers the recording routes. */
export function registerRecordingRoutes(app: FastifyInstance, { db, settings, quotas, now = Date.now }: RecordingRoutesOptions): void {
  const store = createRecordingStore(db);
  const recordingSettings = async (apiKey: string) => {
    const { enabled, sampleRate } = withDefaults(await settings.get(apiKey)).recording!;
    return { enabled, sampleRate };
  };

  app.get('/data/recording.json/:apiKey?', async (request: DataRequest, reply) => {
    const answer = await recordingSettings(requireApiKey(request));
    // Asked on every page of an app: the browser keeps the answer a minute, so a session's later pages ask the
    // network about once a minute; a change of the setting reaches new pages within that minute.
    return reply.header('cache-control', `max-age=${RECORDING_CONFIG_MAX_AGE_S}`).send(answer);
  });

  // Its own scope: the body is bytes whatever its content type says (a Blob from sendBeacon may carry none, or
  // text/plain), up to 5 MB, and an over-long body is refused with this route's limit in the message.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: RECORDING_LIMITS.maxCompressedBytes }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        throw new HttpError(413, `recording chunk is over ${RECORDING_LIMITS.maxCompressedBytes} bytes (5 MB) compressed`);
      }
      if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        throw new HttpError(400, 'body is missing: zlib of the chunk JSON, as application/octet-stream', 'body');
      }
      // The server's handler: 503 while the database is away, the shapes of every other error.
      throw error;
    });
    scope.post('/data/recording/:apiKey?', async (request: DataRequest, reply) => {
      const apiKey = requireApiKey(request);
      const body = request.body;
      if (!(body instanceof Uint8Array) || body.length === 0) {
        throw new HttpError(400, 'body is missing: zlib of the chunk JSON, as application/octet-stream', 'body');
      }
      const chunk = checkRecordingChunk(body);
      // Accepted either way (an agent may have started before recording was switched off), stored only while on.
      if (!(await recordingSettings(apiKey)).enabled) return reply.send({ stored: 0, off: true });
      // issue #31: the bytes as received (what is stored), taken before storing; over the quota, a 429 + Retry-After.
      const at = now();
      await quotas?.take(apiKey, 'recordingBytesPerDay', body.length, at);
      return reply.send({ stored: await store.insertChunk(apiKey, chunk, body, at) });
    });
  });

  // Declared `viewer`; a viewer then passes only where the app lets viewers see recordings (before any read).
  const recordingsAccess = {
    ...accessOf('viewer'),
    preHandler: async (request: AppRequest) => {
      if (request.caller?.role !== 'viewer') return;
      if (withDefaults(await settings.get(request.params.apiKey)).recording?.viewersSeeRecordings === true) return;
      throw new HttpError(403, "this needs the editor role; you are a viewer, and this app's admin has not let viewers see recordings (settings: recording.viewersSeeRecordings)");
    },
  };

  app.get('/api/apps/:apiKey/recordings', recordingsAccess, async (request: AppRequest): Promise<RecordingList> => ({
    recordings: await store.list(request.params.apiKey, { visitorId: queryParam(request.query, 'visitorId'), limit: limitParam(request.query) }),
  }));

  app.get('/api/apps/:apiKey/recordings/:id', recordingsAccess, async (request: AppRequest<{ id: string }>): Promise<RecordingDetail> => {
    const { apiKey, id } = request.params;
    const recording = await store.get(apiKey, id);
    if (!recording) throw new HttpError(404, 'Recording not found');
    const events = fullSnapshotFirst(await store.events(apiKey, id));
    const marks =
      recording.start !== null && recording.end !== null
        ? await queryRecordingMarks(db, apiKey, { visitorId: recording.visitorId, sessionId: recording.sessionId, start: recording.start, end: recording.end })
        : [];
    return { ...recording, events, marks };
  });
}
