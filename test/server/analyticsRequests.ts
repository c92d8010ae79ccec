/**
 * The requests the analytics tests (funnels, paths) make of a test server: events stored through a real beacon,
 * an admin's POST, and a feature or a page made through its route (issue #35).
 */
import { expect } from 'vitest';
import { ADMIN_HEADERS, nodeJzb, type TestServer } from './testServer';

/** The requests, on the server `server()` answers once started; `apiKey` the app they go to unless told. */
export function analyticsRequests(server: () => TestServer, apiKey: string) {
  /** Stores `events` of `app` through `/data/{path}` (a 200 expected). */
  async function beacon(app: string, events: unknown[], path = 'ptm.gif'): Promise<void> {
    const response = await server().app.inject({ method: 'GET', url: `/data/${path}/${app}?v=1&ct=1&jzb=${nodeJzb(events)}` });
    expect(response.statusCode).toBe(200);
  }
  /** A POST of `payload` as the admin token, or as `headers`. */
  const post = (url: string, payload: unknown, headers: Record<string, string> = ADMIN_HEADERS) =>
    server().app.inject({ method: 'POST', url, headers, payload: payload as object });
  /** Makes a feature or a page (a 201 expected); answers its id. */
  async function make(kind: 'features' | 'pages', body: object, app = apiKey): Promise<string> {
    const response = await post(`/api/apps/${app}/${kind}`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  }
  return { beacon, post, make };
}
