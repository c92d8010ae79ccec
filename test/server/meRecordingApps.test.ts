/**
 * GET /api/me tells a viewer which apps' recordings they may see (issue #33: the console offers Recordings to a
 * viewer only where the app's admin set `recording.viewersSeeRecordings`), without a request per app; editors and
 * admins, who see every app's, are not given the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADERS, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';
import { makeUser, type TestUser } from './users';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;

beforeAll(async () => {
  server = await startTestServer({});
  viewer = await makeUser(server.app, 'viewer');
  editor = await makeUser(server.app, 'editor');
}, SERVER_TIMEOUT * 3);
afterAll(() => server?.close(), SERVER_TIMEOUT);

const me = async (headers: Record<string, string>) => (await server.app.inject({ method: 'GET', url: '/api/me', headers })).json();
const settings = (apiKey: string, recording: object) =>
  server.app.inject({ method: 'PUT', url: `/api/apps/${apiKey}/settings`, headers: ADMIN_HEADERS, payload: { recording } });

describe('issue #33 /api/me recordingApps', () => {
  it("lists, for a viewer, the apps whose admin lets viewers see recordings, and follows the settings' changes", async () => {
    expect(await me(viewer.console)).toMatchObject({ role: 'viewer', recordingApps: [] });
    expect((await settings('rec-b', { enabled: true, sampleRate: 1, viewersSeeRecordings: true })).statusCode).toBe(200);
    expect((await settings('rec-a', { enabled: true, sampleRate: 1, viewersSeeRecordings: true })).statusCode).toBe(200);
    expect((await settings('rec-c', { enabled: true, sampleRate: 1, viewersSeeRecordings: false })).statusCode).toBe(200);
    expect((await settings('rec-d', { enabled: true, sampleRate: 1 })).statusCode).toBe(200);
    expect((await me(viewer.bearer)).recordingApps).toEqual(['rec-a', 'rec-b']);
    expect((await settings('rec-b', { enabled: true, sampleRate: 1, viewersSeeRecordings: false })).statusCode).toBe(200);
    expect((await me(viewer.console)).recordingApps).toEqual(['rec-a']);
  });

  it('is not given to editors and admins, who see every app\'s recordings', async () => {
    expect(await me(editor.console)).not.toHaveProperty('recordingApps');
    expect(await me(ADMIN_HEADERS)).not.toHaveProperty('recordingApps');
  });
});
