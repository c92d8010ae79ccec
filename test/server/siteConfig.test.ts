/**
 * Issue #14 app settings as guide.json serves them (server/guides/createGuideSource.ts siteConfig): whatever a
 * stored settings object leaves out, guide.json still answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADERS, nodeJzb, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

const guideJson = (apiKey: string) =>
  server.app.inject({ method: 'GET', url: `/data/guide.json/${apiKey}?jzb=${nodeJzb({ visitorId: 'visitor-1', url: 'http://127.0.0.1/' })}` });

describe('issue #14 settings served on guide.json', () => {
  it('form validation switched on without fields: guide.json answers with no fields to validate (issue #31 fuzzing: it was a 500)', async () => {
    const put = await server.app.inject({ method: 'PUT', url: '/api/apps/no-fields/settings', headers: ADMIN_HEADERS, payload: { formValidation: { enabled: true } } });
    expect(put.statusCode).toBe(200);
    const response = await guideJson('no-fields');
    expect(response.statusCode).toBe(200);
    expect(response.json().settings?.formValidation).toBeUndefined();
  });
});
