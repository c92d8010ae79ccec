/**
 * Issue #14 app settings: what PUT refuses that the database or the readers could not take (found by the fuzz
 * properties of issue #31), and the settings as guide.json serves them (server/guides/createGuideSource.ts
 * siteConfig): whatever a stored settings object leaves out, guide.json still answers.
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

describe('issue #14 settings PUT: a refusal, never a 500 (issue #31 fuzzing)', () => {
  const field = (selector: string) => ({ id: 'email', context: { selector }, rules: [{ type: 'email', id: 'format', ruleText: 'An email' }] });
  const put = (apiKey: string, body: unknown) => server.app.inject({ method: 'PUT', url: `/api/apps/${apiKey}/settings`, headers: ADMIN_HEADERS, payload: body as object });

  it('text the database refuses (a lone surrogate, U+0000) is a 400, and nothing is stored', async () => {
    // As JSON escapes: a lone surrogate cannot cross as UTF-8 text, and a raw U+0000 is not JSON.
    for (const selector of ['#a\\ud800', '#a\\u0000b']) {
      const response = await server.app.inject({
        method: 'PUT',
        url: '/api/apps/bad-text/settings',
        headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' },
        payload: `{"formValidation":{"enabled":true,"fields":[${JSON.stringify(field('#x')).replace('"#x"', `"${selector}"`)}]}}`,
      });
      expect(response.statusCode, selector).toBe(400);
      expect(typeof response.json().error).toBe('string');
    }
    const stored = await server.app.inject({ method: 'GET', url: '/api/apps/bad-text/settings', headers: ADMIN_HEADERS });
    expect(stored.json().formValidation.fields).toEqual([]);
  });

  it('formValidation.fields null is refused naming the field, as any list that is not one', async () => {
    const response = await put('null-fields', { formValidation: { enabled: true, fields: null } });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('formValidation.fields');
  });
});
