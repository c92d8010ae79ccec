/**
 * issue #33 Layout: the admin API's answers are described once, in shared/api, and the server answers with exactly
 * those types; the console reads them through console/types.ts. Two checks make a drift fail:
 * - by type (`tsc -p test`, part of `npm run typecheck`): each query's and store's answer type equals the shared
 *   one, both ways, so a field added to or dropped from one side only is a compile error;
 * - by what the routes send (vitest): each answer's fields are those of its shared type (a key list that
 *   `satisfies` the type, so it is exactly the type's keys), which catches a field a spread or a cast slips past
 *   the types.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type * as Api from '../../shared/api';
import type * as Console from '../../console/types';
import type { queryAccount } from '../../server/queries/queryAccount';
import type { queryAccounts } from '../../server/queries/queryAccounts';
import type { queryApps } from '../../server/queries/queryApps';
import type { queryEvent } from '../../server/queries/queryEvent';
import type { queryEvents } from '../../server/queries/queryEvents';
import type { queryGuideStats } from '../../server/queries/queryGuideStats';
import type { queryHealth } from '../../server/queries/queryHealth';
import type { queryOverview } from '../../server/queries/queryOverview';
import type { queryVisitor } from '../../server/queries/queryVisitor';
import type { queryVisitors } from '../../server/queries/queryVisitors';
import type { toConsoleEvent } from '../../server/queries/toConsoleEvent';
import type { visitorGuides } from '../../server/queries/visitorGuides';
import type { npsOf } from '../../server/queries/npsOf';
import type { parseRange } from '../../server/queries/parseRange';
import type { queryRecordingMarks } from '../../server/recordings/queryRecordingMarks';
import type { RecordingStore } from '../../server/recordings/createRecordingStore';
import type { guideListStats } from '../../server/guides/guideListStats';
import type { GuideState as ServerGuideState } from '../../server/guides/createGuideStore';
import type { withDefaults } from '../../server/settings/checkSettings';
import type { ROLES } from '../../server/auth/roles';
import type { Caller } from '../../server/auth/identifyCaller';
import type { User } from '../../server/auth/users/createUserStore';
import type { TokenStore } from '../../server/auth/users/createTokenStore';
import { ADMIN_HEADERS, guideEvent, nodeJzb, SERVER_TIMEOUT, startTestServer, wireEvent, type TestServer } from './testServer';

type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

describe('issue #33 Layout: the server answers with the types of shared/api', () => {
  it('apps and analytics (server/queries)', () => {
    expectTypeOf<Answer<typeof queryApps>>().toEqualTypeOf<Api.AppRow[]>();
    expectTypeOf<ReturnType<typeof parseRange>>().toEqualTypeOf<Api.ConsoleRange>();
    expectTypeOf<Answer<typeof queryOverview>>().toEqualTypeOf<Api.Overview>();
    expectTypeOf<Answer<typeof queryEvents>>().toEqualTypeOf<Api.EventList>();
    expectTypeOf<ReturnType<typeof toConsoleEvent>>().toEqualTypeOf<Api.ConsoleEvent>();
    expectTypeOf<Answer<typeof queryEvent>>().toEqualTypeOf<Api.StoredEvent | undefined>();
    expectTypeOf<Answer<typeof queryVisitors>>().toEqualTypeOf<Api.VisitorRow[]>();
    expectTypeOf<Answer<typeof queryVisitor>>().toEqualTypeOf<Api.VisitorDetail | undefined>();
    expectTypeOf<ReturnType<typeof visitorGuides>>().toEqualTypeOf<Api.VisitorGuideRow[]>();
    expectTypeOf<Answer<typeof queryAccounts>>().toEqualTypeOf<Api.AccountRow[]>();
    expectTypeOf<Answer<typeof queryAccount>>().toEqualTypeOf<Api.AccountDetail | undefined>();
    expectTypeOf<Answer<typeof queryHealth>>().toEqualTypeOf<Api.AgentHealth>();
  });

  it('guides, recordings and settings', () => {
    expectTypeOf<ServerGuideState>().toEqualTypeOf<Api.GuideState>();
    expectTypeOf<Answer<typeof guideListStats>>().toEqualTypeOf<Record<string, Api.GuideListStats>>();
    expectTypeOf<Answer<typeof queryGuideStats>>().toEqualTypeOf<Api.GuideStats>();
    expectTypeOf<ReturnType<typeof npsOf>>().toEqualTypeOf<Api.Nps>();
    expectTypeOf<Answer<RecordingStore['list']>>().toEqualTypeOf<Api.RecordingSummary[]>();
    expectTypeOf<Answer<RecordingStore['get']>>().toEqualTypeOf<Api.RecordingSummary | undefined>();
    expectTypeOf<Answer<RecordingStore['events']>>().toEqualTypeOf<Api.RecordedEvent[]>();
    expectTypeOf<Answer<typeof queryRecordingMarks>>().toEqualTypeOf<Api.RecordingMark[]>();
    expectTypeOf<ReturnType<typeof withDefaults>>().toEqualTypeOf<Api.AppSettings>();
  });

  it('users, the caller, personal tokens (server/auth)', () => {
    expectTypeOf<(typeof ROLES)[number]>().toEqualTypeOf<Api.Role>();
    // The store's user is the API's: no password hash, nothing the answer lacks.
    expectTypeOf<User>().toEqualTypeOf<Api.ConsoleUser>();
    expectTypeOf<Caller['via']>().toEqualTypeOf<Api.Me['via']>();
    expectTypeOf<Caller['role']>().toEqualTypeOf<Api.Me['role']>();
    expectTypeOf<NonNullable<Caller['token']>>().toEqualTypeOf<NonNullable<Api.Me['token']>>();
    expectTypeOf<Answer<TokenStore['list']>>().toEqualTypeOf<Api.PersonalToken[]>();
    expectTypeOf<Exclude<Answer<TokenStore['create']>, 'too many'>>().toEqualTypeOf<Api.NewPersonalToken>();
  });

  it('the console reads the same types (console/types.ts re-exports shared/api)', () => {
    expectTypeOf<Console.AppRow>().toEqualTypeOf<Api.AppRow>();
    expectTypeOf<Console.Range>().toEqualTypeOf<Api.ConsoleRange>();
    expectTypeOf<Console.HealthAnswer>().toEqualTypeOf<Api.AgentHealth>();
    expectTypeOf<Console.RecordingRow>().toEqualTypeOf<Api.RecordingSummary>();
    expectTypeOf<Console.GuideStats>().toEqualTypeOf<Api.GuideStats>();
    expectTypeOf<Omit<Console.StoredGuide, 'guide'>>().toEqualTypeOf<Omit<Api.GuideDetail, 'guide'>>();
  });
});

/** Each key of T, marked `required` or `optional`: a literal that `satisfies` it names exactly T's keys. */
type KeyList<T> = { [K in keyof T]-?: object extends Pick<T, K> ? 'optional' : 'required' };

/** The fields the server sent that `keys` (the shared type's) lack, and the required ones it did not send. */
function drift<T>(answer: unknown, keys: KeyList<T>): { unknown: string[]; missing: string[] } {
  const sent = Object.keys(answer as object);
  return {
    unknown: sent.filter((key) => !(key in keys)),
    missing: Object.entries(keys).filter(([key, kind]) => kind === 'required' && !sent.includes(key)).map(([key]) => key),
  };
}
const NO_DRIFT = { unknown: [], missing: [] };

const KEY = 'answers-app';
const T0 = Date.UTC(2026, 0, 10);
const GUIDE = {
  id: 'g1',
  launchMethod: 'auto',
  steps: [{ id: 's1', guideId: 'g1', type: 'lightbox', domJson: { type: 'div', props: { id: 'guide-base' }, children: [] } }],
};

let server: TestServer;
const send = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
  const response = await server.app.inject({ method, url, headers: ADMIN_HEADERS, ...(payload ? { payload } : {}) });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json();
};

beforeAll(async () => {
  server = await startTestServer();
  const event = { browser_time: T0 + 1000, visitor_id: 'v1', account_id: 'acme', sessionId: 's-1', tabId: 'tab-1', url: 'http://app/home' };
  const analytics = [wireEvent({ ...event, type: 'click', props: { target: { tag: 'BUTTON', id: 'save', cls: '', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Save' } } })];
  const guides = [guideEvent('guideSeen', { guide_id: 'g1', guide_step_id: 's1' }, event)];
  await send('PUT', `/api/apps/${KEY}/guides/g1`, GUIDE);
  for (const [path, events] of [['ptm.gif', analytics], ['guide.gif', guides]] as const) {
    const beacon = await server.app.inject({ method: 'GET', url: `/data/${path}/${KEY}?v=1&ct=1&jzb=${nodeJzb(events)}` });
    expect(beacon.statusCode).toBe(200);
  }
}, SERVER_TIMEOUT);
afterAll(async () => server?.close(), SERVER_TIMEOUT);

describe('issue #33 Layout: every route sends the fields of its shared type, no others', () => {
  const range = `from=${T0}&to=${T0 + 86_400_000}`;
  const app = `/api/apps/${KEY}`;

  it('apps and analytics', async () => {
    const apps: unknown[] = await send('GET', '/api/apps');
    expect(apps.length).toBeGreaterThan(0);
    for (const row of apps) {
      expect(drift<Api.AppRow>(row, { apiKey: 'required', events: 'required', visitors: 'required', firstSeen: 'required', lastSeen: 'required', guides: 'required', health24h: 'required' })).toEqual(NO_DRIFT);
    }
    const overview = await send('GET', `${app}/overview?${range}`);
    expect(drift<Api.Overview>(overview, { range: 'required', totals: 'required', series: 'required', topPages: 'required', topFeatures: 'required', frustration: 'required', channels: 'required', sessions: 'required' })).toEqual(NO_DRIFT);
    const list = await send('GET', `${app}/events`);
    expect(drift<Api.EventList>(list, { events: 'required', lastId: 'required' })).toEqual(NO_DRIFT);
    expect(list.events.length).toBe(2);
    const eventKeys: KeyList<Api.ConsoleEvent> = { id: 'required', receivedAt: 'required', time: 'required', kind: 'required', type: 'required', visitorId: 'required', accountId: 'required', url: 'required', element: 'required', name: 'required' };
    for (const event of list.events) expect(drift<Api.ConsoleEvent>(event, eventKeys)).toEqual(NO_DRIFT);
    const stored = await send('GET', `${app}/events/${list.events[0].id}`);
    expect(drift<Api.StoredEvent>(stored, { id: 'required', receivedAt: 'required', kind: 'required', type: 'required', visitorId: 'required', accountId: 'required', source: 'required', body: 'required' })).toEqual(NO_DRIFT);
    const [visitor] = await send('GET', `${app}/visitors`);
    expect(drift<Api.VisitorRow>(visitor, { visitorId: 'required', accountId: 'required', firstSeen: 'required', lastSeen: 'required', events: 'required', metadata: 'required' })).toEqual(NO_DRIFT);
    const detail = await send('GET', `${app}/visitors/v1`);
    expect(drift<Api.VisitorDetail>(detail, { visitorId: 'required', accountId: 'required', metadata: 'required', firstSeen: 'required', lastSeen: 'required', sessions: 'required', events: 'required' })).toEqual(NO_DRIFT);
    expect(drift<Api.VisitorSession>(detail.sessions[0], { sessionId: 'required', start: 'required', end: 'required', events: 'required', pages: 'required' })).toEqual(NO_DRIFT);
    const [met] = await send('GET', `${app}/visitors/v1/guides`);
    expect(drift<Api.VisitorGuideRow>(met, { guideId: 'required', name: 'required', status: 'required', step: 'required', steps: 'required', at: 'required', snoozedUntil: 'optional', deleted: 'optional' })).toEqual(NO_DRIFT);
    const [account] = await send('GET', `${app}/accounts`);
    expect(drift<Api.AccountRow>(account, { accountId: 'required', visitors: 'required', events: 'required', lastSeen: 'required', metadata: 'required' })).toEqual(NO_DRIFT);
    const accountDetail = await send('GET', `${app}/accounts/acme`);
    expect(drift<Api.AccountDetail>(accountDetail, { accountId: 'required', metadata: 'required', visitors: 'required' })).toEqual(NO_DRIFT);
    const health = await send('GET', `${app}/health?${range}`);
    expect(drift<Api.AgentHealth>(health, { range: 'required', totals: 'required', versions: 'required', series: 'required', errors: 'required' })).toEqual(NO_DRIFT);
  });

  it('guides and settings', async () => {
    const [row] = await send('GET', `${app}/guides`);
    expect(drift<Api.GuideRow>(row, { id: 'required', name: 'required', state: 'required', launchMethod: 'required', stepCount: 'required', kind: 'required', showsAfter: 'optional', expiresAfter: 'optional', updatedAt: 'required', stats: 'required' })).toEqual(NO_DRIFT);
    const detailKeys: KeyList<Api.GuideDetail> = { guide: 'required', state: 'required', updatedAt: 'required' };
    expect(drift<Api.GuideDetail>(await send('GET', `${app}/guides/g1`), detailKeys)).toEqual(NO_DRIFT);
    expect(drift<Api.GuideDetail>(await send('POST', `${app}/guides/g1/state`, { state: 'public' }), detailKeys)).toEqual(NO_DRIFT);
    expect(drift<Api.GuideDetail>(await send('POST', `${app}/guides/g1/duplicate`), detailKeys)).toEqual(NO_DRIFT);
    const stats = await send('GET', `${app}/guides/g1/stats?${range}`);
    expect(drift<Api.GuideStats>(stats, { range: 'required', funnel: 'required', dismissed: 'required', snoozed: 'required', timeline: 'required', polls: 'required', health: 'required' })).toEqual(NO_DRIFT);
    const settingsKeys: KeyList<Api.AppSettings> = { launcher: 'required', guides: 'required', recording: 'required', formValidation: 'required', guideMarkdown: 'required', theme: 'required', quotas: 'required' };
    const settings = await send('GET', `${app}/settings`);
    expect(drift<Api.AppSettings>(settings, settingsKeys)).toEqual(NO_DRIFT);
    const recording = { ...settings.recording, viewersSeeRecordings: true };
    const saved = await send('PUT', `${app}/settings`, { ...settings, recording });
    expect(drift<Api.AppSettings>(saved, settingsKeys)).toEqual(NO_DRIFT);
    expect(drift<Api.AppSettings['recording']>(saved.recording, { enabled: 'required', sampleRate: 'required', viewersSeeRecordings: 'optional' })).toEqual(NO_DRIFT);
    expect(drift<Api.AppCreated>(await send('POST', '/api/apps', { apiKey: 'answers-new-app' }), { apiKey: 'required', created: 'required' })).toEqual(NO_DRIFT);
  });

  it('users, me, invitations and personal tokens', async () => {
    const userKeys: KeyList<Api.ConsoleUser> = { id: 'required', email: 'required', name: 'required', role: 'required', status: 'required', createdAt: 'required', lastSignInAt: 'required' };
    const invited = await send('POST', '/api/users', { email: 'answers-invited@example.com', role: 'viewer' });
    expect(drift<Api.InvitedUser>(invited, { ...userKeys, invitationUrl: 'required', invitationExpiresAt: 'required' })).toEqual(NO_DRIFT);
    const renewed = await send('POST', `/api/users/${invited.id}/invitation`);
    expect(drift<Api.Invitation>(renewed, { invitationUrl: 'required', expiresAt: 'required' })).toEqual(NO_DRIFT);
    const shown = await server.app.inject({ method: 'GET', url: `/api/invitations/${String(renewed.invitationUrl).split('/').pop()}` });
    expect(drift<Api.InvitationInfo>(shown.json(), { email: 'required', name: 'required', role: 'required', expiresAt: 'required' })).toEqual(NO_DRIFT);
    const { users } = await send('GET', '/api/users');
    for (const user of users) expect(drift<Api.ConsoleUser>(user, userKeys)).toEqual(NO_DRIFT);
    const meKeys: KeyList<Api.Me> = { role: 'required', via: 'required', user: 'required', apiKey: 'optional', token: 'optional', recordingApps: 'optional' };
    expect(drift<Api.Me>(await send('GET', '/api/me'), meKeys)).toEqual(NO_DRIFT);

    const password = 'correct horse battery';
    const signedIn = async (email: string, role: Api.Role) => {
      expect(drift<Api.ConsoleUser>(await send('POST', '/api/users', { email, role, password }), userKeys)).toEqual(NO_DRIFT);
      const login = await server.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
      expect(login.statusCode).toBe(204);
      return { cookie: String(login.headers['set-cookie']).split(';')[0], 'x-waymark-console': '1' };
    };
    // A viewer's /api/me says which apps' recordings they may see (the settings test above let viewers see KEY's).
    const viewerMe = await server.app.inject({ method: 'GET', url: '/api/me', headers: await signedIn('answers-viewer@example.com', 'viewer') });
    expect(viewerMe.json().recordingApps).toEqual([KEY]);
    expect(drift<Api.Me>(viewerMe.json(), meKeys)).toEqual(NO_DRIFT);
    const asEditor = await signedIn('answers-editor@example.com', 'editor');
    const made = await server.app.inject({ method: 'POST', url: '/api/me/tokens', headers: asEditor, payload: { name: 'answers' } });
    const tokenKeys: KeyList<Api.PersonalToken> = { id: 'required', name: 'required', createdAt: 'required', lastUsedAt: 'required' };
    expect(drift<Api.NewPersonalToken>(made.json(), { ...tokenKeys, token: 'required' })).toEqual(NO_DRIFT);
    const bearer = { authorization: `Bearer ${made.json().token}` };
    const me = await server.app.inject({ method: 'GET', url: '/api/me', headers: bearer });
    expect(drift<Api.Me>(me.json(), meKeys)).toEqual(NO_DRIFT);
    expect(drift<Api.ConsoleUser>(me.json().user, userKeys)).toEqual(NO_DRIFT);
    const tokens = await server.app.inject({ method: 'GET', url: '/api/me/tokens', headers: bearer });
    expect(drift<Api.TokenList>(tokens.json(), { tokens: 'required' })).toEqual(NO_DRIFT);
    for (const token of tokens.json().tokens) expect(drift<Api.PersonalToken>(token, tokenKeys)).toEqual(NO_DRIFT);
  });
});
