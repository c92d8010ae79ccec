/**
 * Issue #31 quotas per app on the open collector endpoints: the app's settings hold them (checked, naming the
 * field), a batch that would cross the events-per-minute quota is refused whole with 429, Retry-After and a
 * message naming the quota and its value, and nothing of it is stored; recording chunks count their bytes a day.
 * On PostgreSQL (vitest.postgres.config.ts), two collectors on one database share the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server?.close(), SERVER_TIMEOUT);

const putSettings = (target: TestServer, apiKey: string, body: unknown) =>
  target.app.inject({ method: 'PUT', url: `/api/apps/${apiKey}/settings`, headers: ADMIN_HEADERS, payload: body as object });

describe('issue #31 quotas: settings', () => {
  it('answers the default quotas, stores set ones, and refuses -1, "abc", 1.5 and unknown quotas naming the field', async () => {
    const defaults = (await server.app.inject({ method: 'GET', url: '/api/apps/quota-settings/settings', headers: ADMIN_HEADERS })).json();
    expect(defaults.quotas).toEqual({ eventsPerMinute: 60_000, recordingBytesPerDay: 1_073_741_824 });
    const stored = await putSettings(server, 'quota-settings', { quotas: { eventsPerMinute: 0 } });
    expect(stored.statusCode).toBe(200);
    // An unset quota keeps its default.
    expect(stored.json().quotas).toEqual({ eventsPerMinute: 0, recordingBytesPerDay: 1_073_741_824 });
    const cases: Array<[unknown, string]> = [
      [{ eventsPerMinute: -1 }, 'quotas.eventsPerMinute'],
      [{ eventsPerMinute: 'abc' }, 'quotas.eventsPerMinute'],
      [{ eventsPerMinute: 1.5 }, 'quotas.eventsPerMinute'],
      [{ recordingBytesPerDay: -1 }, 'quotas.recordingBytesPerDay'],
      [{ recordingBytesPerDay: 'abc' }, 'quotas.recordingBytesPerDay'],
      [{ recordingBytesPerDay: 1.5 }, 'quotas.recordingBytesPerDay'],
      [{ recordingBytesPerDay: 2 ** 60 }, 'quotas.recordingBytesPerDay'],
      [{ bytesPerMinute: 5 }, 'quotas.bytesPerMinute'],
      [5, 'quotas'],
    ];
    for (const [quotas, field] of cases) {
      const response = await putSettings(server, 'quota-settings', { quotas });
      expect(response.statusCode, JSON.stringify(quotas)).toBe(400);
      expect(response.json().field, JSON.stringify(quotas)).toBe(field);
      expect(response.json().error).toContain(field);
    }
  });
});
