/**
 * Issue #14 guide management: guides live in the database, saved with the agent's own checks (400 naming the
 * field), and a published guide is served by guide.json at once; the seed app starts with the folder's guides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_HEADERS, guideEvent, nodeJzb, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

const lightbox = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  name: `Guide ${id}`,
  launchMethod: 'auto',
  steps: [
    {
      id: `${id}-1`,
      type: 'lightbox',
      domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: 'Hello' }] },
    },
  ],
  ...fields,
});

const folderGuide = { ...lightbox('from-folder'), state: 'staged' };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ 'from-folder.json': folderGuide, 'other.json': lightbox('other') }, { seedApp: 'seeded' });
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  server.app.inject({ method, url, headers: ADMIN_HEADERS, ...(payload !== undefined ? { payload: payload as object } : {}) });

const served = async (apiKey: string, who: { visitorId?: string; accountId?: string; metadata?: object } = {}, headers: Record<string, string> = {}) => {
  const jzb = nodeJzb({ visitorId: 'v1', accountId: '', url: 'http://127.0.0.1/', oldVisitorId: '', metadata: {}, ...who });
  const response = await server.app.inject({ method: 'GET', url: `/data/guide.json/${apiKey}?jzb=${jzb}`, headers });
  expect(response.statusCode).toBe(200);
  return response.json().guides as Array<{ id: string; state: string; steps: Array<{ guideId: string }>; lastUpdatedAt: number }>;
};

describe('issue #14 guide management API', () => {
  it('creates (201), replaces (200), reads, lists, and refuses a body whose id is not the URL id', async () => {
    const created = await api('PUT', '/api/apps/crud/guides/g1', lightbox('g1'));
    expect(created.statusCode).toBe(201);
    expect(created.json().state).toBe('draft');
    expect(created.json().guide.steps[0].guideId).toBe('g1');
    const replaced = await api('PUT', '/api/apps/crud/guides/g1', lightbox('g1', { name: 'Renamed' }));
    expect(replaced.statusCode).toBe(200);
    expect((await api('GET', '/api/apps/crud/guides/g1')).json().guide.name).toBe('Renamed');
    const list = (await api('GET', '/api/apps/crud/guides')).json();
    expect(list).toEqual([
      { id: 'g1', name: 'Renamed', state: 'draft', launchMethod: 'auto', stepCount: 1, kind: 'guide', updatedAt: expect.any(Number), stats: { seen: 0, completed: 0, dismissed: 0 } },
    ]);
    const wrongId = await api('PUT', '/api/apps/crud/guides/g2', lightbox('g1'));
    expect(wrongId.statusCode).toBe(400);
    expect(wrongId.json().field).toBe('id');
  });

  it('answers 400 naming the field, with the agent\'s own messages', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ ...lightbox('bad'), launchMethod: 7 }, 'launchMethod', /launchMethod must be a string/],
      [{ ...lightbox('bad'), launchMethod: 'auto-sometimes' }, 'launchMethod', /'sometimes'/],
      [{ ...lightbox('bad'), steps: [{ type: 'lightbox' }] }, 'steps[0].id', /a step of guide bad has no string id/],
      [{ ...lightbox('bad'), steps: [{ id: 's', type: 'popup' }] }, 'steps[0].type', /type 'popup'/],
      [{ ...lightbox('bad'), steps: [] }, 'steps', /no steps/],
      [{ ...lightbox('bad'), state: 'live' }, 'state', /state must be one of draft, staged, public, disabled/],
      [
        { ...lightbox('bad'), steps: [{ id: 's', type: 'lightbox', domJson: { type: 'div', props: { onclick: 'x()' }, children: [] } }] },
        'steps[0].domJson',
        /Illegal building block key onclick/i,
      ],
      [{ ...lightbox('bad'), steps: [{ id: 's', type: 'lightbox', domJson: { type: 'div' } }] }, 'steps[0].domJson', /./],
      // A page rule the agent could not compile would drop the guide on every page: refused when saved.
      [{ ...lightbox('bad'), steps: [{ id: 's', type: 'lightbox', regexUrlRule: '([' }] }, 'steps[0].regexUrlRule', /^step s: regexUrlRule '\(\[' is not a regular expression \(.+\)$/],
      [{ ...lightbox('bad'), steps: [{ id: 's', type: 'lightbox', regexUrlRule: 7 }] }, 'steps[0].regexUrlRule', /regexUrlRule must be a string/],
      [{ ...lightbox('bad'), steps: [{ id: 's', type: 'tooltip', elementPathRule: ['#a'] }] }, 'steps[0].elementPathRule', /elementPathRule must be a string/],
    ];
    for (const [body, field, message] of cases) {
      const response = await api('PUT', '/api/apps/crud/guides/bad', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ error: expect.stringMatching(message), field });
    }
    expect((await api('GET', '/api/apps/crud/guides/bad')).statusCode).toBe(404);
  });

  it('serves a published guide on guide.json at once, and stops when it is disabled or deleted', async () => {
    // The app reads the folder until the database owns it.
    expect((await served('publish')).map((g) => g.id).sort()).toEqual(['from-folder', 'other']);
    expect((await api('PUT', '/api/apps/publish/guides/p1', lightbox('p1'))).statusCode).toBe(201);
    expect(await served('publish')).toEqual([]); // a draft is never served, and the folder no longer is
    const published = await api('POST', '/api/apps/publish/guides/p1/state', { state: 'public' });
    expect(published.statusCode).toBe(200);
    const [guide] = await served('publish');
    expect(guide).toMatchObject({ id: 'p1', state: 'public', lastUpdatedAt: published.json().updatedAt });
    expect(guide.steps[0].guideId).toBe('p1');
    await api('POST', '/api/apps/publish/guides/p1/state', { state: 'disabled' });
    expect(await served('publish')).toEqual([]);
    const badState = await api('POST', '/api/apps/publish/guides/p1/state', { state: 'on' });
    expect(badState.json()).toEqual({ error: expect.stringMatching(/state must be one of/), field: 'state' });
    expect((await api('DELETE', '/api/apps/publish/guides/p1')).statusCode).toBe(204);
    expect((await api('DELETE', '/api/apps/publish/guides/p1')).statusCode).toBe(404);
    expect((await api('POST', '/api/apps/publish/guides/p1/state', { state: 'public' })).statusCode).toBe(404);
    expect(await served('publish')).toEqual([]);
  });

  it('seeds the seed app with the folder guides, keeping a file\'s state (else public)', async () => {
    const list = (await api('GET', '/api/apps/seeded/guides')).json() as Array<{ id: string; state: string }>;
    expect(list.map(({ id, state }) => [id, state])).toEqual([['from-folder', 'staged'], ['other', 'public']]);
    expect((await served('seeded')).map((g) => g.id)).toEqual(['other']);
  });

  it('counts seen, completed (last step advanced or dismissed) and dismissed visitors on the list', async () => {
    await api('PUT', '/api/apps/stats/guides/s1', { ...lightbox('s1'), state: 'public' });
    const events = [
      guideEvent('guideSeen', { guide_id: 's1', guide_step_id: 's1-1' }, { visitor_id: 'a' }),
      guideEvent('guideSeen', { guide_id: 's1', guide_step_id: 's1-1' }, { visitor_id: 'b' }),
      guideEvent('guideSeen', { guide_id: 's1', guide_step_id: 's1-1' }, { visitor_id: 'b' }),
      guideEvent('guideDismissed', { guide_id: 's1', guide_step_id: 's1-1' }, { visitor_id: 'b' }),
      guideEvent('guideSeen', { guide_id: 'elsewhere', guide_step_id: 'x' }, { visitor_id: 'c' }),
    ];
    expect((await server.app.inject({ method: 'GET', url: `/data/guide.gif/stats?jzb=${nodeJzb(events)}` })).statusCode).toBe(200);
    const [row] = (await api('GET', '/api/apps/stats/guides')).json();
    expect(row.stats).toEqual({ seen: 2, completed: 1, dismissed: 1 });
  });
});

describe('issue #15 a guide\'s audience', () => {
  const metadata = (visitor: object, account: object = {}) => ({ visitor, account, parentAccount: {} });

  it('serves the guide only to visitors whose metadata and ids meet every condition, without the audience field', async () => {
    const audience = { when: { 'visitor.role': { in: ['admin', 'owner'] }, 'account.plan': 'pro', accountId: { startsWith: 'acme' } } };
    expect((await api('PUT', '/api/apps/audience/guides/a1', lightbox('a1', { audience }))).statusCode).toBe(201);
    expect((await api('PUT', '/api/apps/audience/guides/all', lightbox('all'))).statusCode).toBe(201);
    for (const id of ['a1', 'all']) await api('POST', `/api/apps/audience/guides/${id}/state`, { state: 'public' });
    // The stored guide keeps its audience for the console and the designer.
    expect((await api('GET', '/api/apps/audience/guides/a1')).json().guide.audience).toEqual(audience);

    const inside = await served('audience', { accountId: 'acme-eu', metadata: metadata({ role: 'owner' }, { plan: 'pro' }) });
    expect(inside.map((g) => g.id).sort()).toEqual(['a1', 'all']);
    expect(inside.find((g) => g.id === 'a1')).not.toHaveProperty('audience');
    // One condition failing is enough to leave it out; a missing value meets none.
    expect((await served('audience', { accountId: 'acme-eu', metadata: metadata({ role: 'viewer' }, { plan: 'pro' }) })).map((g) => g.id)).toEqual(['all']);
    expect((await served('audience', { accountId: 'other', metadata: metadata({ role: 'owner' }, { plan: 'pro' }) })).map((g) => g.id)).toEqual(['all']);
    expect((await served('audience', { accountId: 'acme-eu', metadata: metadata({}, { plan: 'pro' }) })).map((g) => g.id)).toEqual(['all']);
    // An empty audience is everyone.
    await api('PUT', '/api/apps/audience/guides/a1', lightbox('a1', { audience: { when: {} } }));
    expect((await served('audience')).map((g) => g.id).sort()).toEqual(['a1', 'all']);
  });

  it('refuses an audience the server could not judge, naming the condition', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [['visitor.role'], /audience must be an object/],
      [{ when: [] }, /when must be an object/],
      [{ when: { 'visitor.': 'x' } }, /condition "visitor\.": unknown path/],
      [{ when: { role: 'x' } }, /condition "role": unknown path/],
      [{ when: { 'visitor.role': { is: 'x' } } }, /exactly one operator of equals, contains, startsWith, in/],
      [{ when: { 'visitor.age': { in: 3 } } }, /in needs an array/],
    ];
    for (const [audience, error] of cases) {
      const response = await api('PUT', '/api/apps/audience/guides/bad', lightbox('bad', { audience }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: expect.stringMatching(error), field: 'audience' });
    }
  });
});

describe('issue #17 guides in several languages', () => {
  const words = (text: string) => ({ type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: text }] });
  const translated = lightbox('hello', {
    authoredLanguage: 'en',
    translations: {
      fr: { name: 'Bonjour', steps: { 'hello-1': { domJson: words('Bonjour') } } },
      'pt-BR': { steps: { 'hello-1': { domJson: words('Olá') } } },
    },
  });
  type Served = { name: string; language?: string; authoredLanguage?: string; translationStates?: Record<string, Record<string, string>>; steps: Array<{ domJson: { children: Array<{ content: string }> } }> };
  const first = async (who: object, headers: Record<string, string> = {}) => (await served('i18n', who, headers))[0] as unknown as Served;
  const text = (g: Served) => g.steps[0]!.domJson.children[0]!.content;

  it("serves each guide in the visitor's language: the metadata's, else the browser's, else as written; never the translations", async () => {
    expect((await api('PUT', '/api/apps/i18n/guides/hello', translated)).statusCode).toBe(201);
    await api('POST', '/api/apps/i18n/guides/hello/state', { state: 'public' });
    const fr = await first({ metadata: { visitor: { id: 'v1', language: 'fr_FR' } } });
    expect([fr.name, text(fr), fr.language, fr.authoredLanguage]).toEqual(['Bonjour', 'Bonjour', 'fr', 'en']);
    expect(Object.keys(fr.translationStates!)).toEqual(['fr', 'pt-BR']);
    expect(fr.translationStates!.fr!['hello-1']).toMatch(/^[0-9a-f]{16}$/);
    expect(fr).not.toHaveProperty('translations');
    // The browser's languages by preference; a region finds its language.
    expect(text(await first({}, { 'accept-language': 'de-DE,pt-BR;q=0.9,fr;q=0.8' }))).toBe('Olá');
    expect(text(await first({}, { 'accept-language': 'fr-CA' }))).toBe('Bonjour');
    // Metadata wins over the browser; nothing known: as written.
    expect(text(await first({ metadata: { visitor: { language: 'pt-BR' } } }, { 'accept-language': 'fr' }))).toBe('Olá');
    const en = await first({}, { 'accept-language': 'de' });
    expect([text(en), en.language, en.name]).toEqual(['Hello', 'en', 'Guide hello']);
  });

  it('refuses translations the agent could not render or that name no step of the guide, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ authoredLanguage: 'English' }, 'authoredLanguage', /language tag/],
      [{ translations: [] }, 'translations', /must be an object/],
      [{ translations: { french: { steps: {} } } }, 'translations.french', /not a language tag/],
      [{ translations: { fr: { steps: { nope: { domJson: words('x') } } } } }, 'translations.fr.steps.nope', /a step the guide does not have/],
      [{ translations: { fr: { steps: { 'bad-1': { domJson: { type: 'script', props: {} } } } } } }, 'translations.fr.steps.bad-1.domJson', /.+/],
    ];
    for (const [fields, field, error] of cases) {
      const response = await api('PUT', '/api/apps/i18n/guides/bad', lightbox('bad', fields));
      expect(response.statusCode, field).toBe(400);
      expect(response.json(), field).toEqual({ error: expect.stringMatching(error), field });
    }
  });

  it("the preview endpoint answers the guide's languages and the guide in the one asked", async () => {
    await api('PUT', '/api/apps/i18n/guides/hello', translated);
    const preview = async (query: string) => (await api('GET', `/api/s/sub/guide/hello/preview?apiKey=i18n${query}`)).json();
    const plain = await preview('');
    expect([plain.languages, plain.language, plain.guide.steps[0].domJson.children[0].content]).toEqual([['en', 'fr', 'pt-BR'], 'en', 'Hello']);
    const fr = await preview('&language=fr');
    expect([fr.language, fr.guide.steps[0].domJson.children[0].content]).toEqual(['fr', 'Bonjour']);
    expect((await api('GET', '/api/s/sub/guide/hello/preview?apiKey=i18n&language=%3Cx%3E')).statusCode).toBe(400);
  });
});

describe('issue #14 app settings', () => {
  it('answers the defaults, stores a valid object, and refuses unknown keys and bad values naming the field', async () => {
    const defaults = (await api('GET', '/api/apps/settings-app/settings')).json();
    expect(defaults).toEqual({
      launcher: null,
      guides: { throttling: { enabled: false, interval: 0, unit: 'minute' }, adoptionGuides: 'before' },
      recording: { enabled: false, sampleRate: 1 },
      formValidation: { enabled: true, fields: [] },
      guideMarkdown: true,
      theme: {},
      quotas: { eventsPerMinute: 60_000, recordingBytesPerDay: 1_073_741_824 },
    });
    const stored = await api('PUT', '/api/apps/settings-app/settings', { recording: { enabled: true, sampleRate: 0.5 }, guides: { throttling: { enabled: true, interval: 2, unit: 'hour' } } });
    expect(stored.statusCode).toBe(200);
    expect(stored.json().recording).toEqual({ enabled: true, sampleRate: 0.5 });
    expect((await api('GET', '/api/apps/settings-app/settings')).json().guides.throttling).toEqual({ enabled: true, interval: 2, unit: 'hour' });
    const cases: Array<[unknown, string]> = [
      [{ colour: 'red' }, 'colour'],
      [{ recording: { enabled: 'yes' } }, 'recording.enabled'],
      [{ recording: { enabled: true, sampleRate: 2 } }, 'recording.sampleRate'],
      [{ guides: { throttling: { enabled: true, interval: 1, unit: 'week' } } }, 'guides.throttling.unit'],
      [{ guides: { adoptionGuides: 'middle' } }, 'guides.adoptionGuides'],
      [{ launcher: { enabled: true, data: { position: 'middle' } } }, 'launcher.data.position'],
      [{ formValidation: { enabled: true, fields: [{ id: 'f', context: { selector: '#a' }, rules: [{ type: 'zip', id: 'r', ruleText: 't' }] }] } }, 'formValidation.fields[0].rules[0].type'],
      [{ guideMarkdown: 1 }, 'guideMarkdown'],
      [{ theme: { background: 'navy' } }, 'theme.background'],
      [{ theme: { borderWidth: 9 } }, 'theme.borderWidth'],
      [{ theme: { shadow: true } }, 'theme.shadow'],
      [{ theme: '#fff' }, 'theme'],
      [[1], ''],
    ];
    for (const [body, field] of cases) {
      const response = await api('PUT', '/api/apps/settings-app/settings', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().field).toBe(field);
    }
  });

  it('gives the seed app the demo\'s settings (server/demo/settings.json: form validation of its Settings page)', async () => {
    const seeded = (await api('GET', '/api/apps/seeded/settings')).json();
    expect(seeded.formValidation.enabled).toBe(true);
    expect(seeded.formValidation.fields.map((f: { id: string }) => f.id)).toEqual(['full-name', 'email']);
  });

  it('serves the launcher of the settings on guide.json, else the folder\'s', async () => {
    const launcher = { enabled: true, data: { position: 'bottom-left' } };
    await api('PUT', '/api/apps/launcher-app/settings', { launcher });
    const jzb = nodeJzb({ visitorId: 'v1', url: 'http://127.0.0.1/' });
    const response = await server.app.inject({ method: 'GET', url: `/data/guide.json/launcher-app?jzb=${jzb}` });
    expect(response.json().launcher).toEqual(launcher);
  });
});

describe('issue #14 guide settings reach the agent', () => {
  it('serves the stored throttling and adoption order as guide.json settings, and nothing when unset', async () => {
    const jzb = nodeJzb({ visitorId: 'v1', url: 'http://127.0.0.1/' });
    const read = async (apiKey: string) => (await server.app.inject({ method: 'GET', url: `/data/guide.json/${apiKey}?jzb=${jzb}` })).json();
    expect(await read('no-settings')).not.toHaveProperty('settings');
    const guides = { throttling: { enabled: true, interval: 30, unit: 'minute' }, adoptionGuides: 'after' };
    await api('PUT', '/api/apps/throttled/settings', { guides });
    expect((await read('throttled')).settings).toEqual(guides);
  });

  it('serves the form fields to validate (analytics §2) while form validation is on, and none when it is off', async () => {
    const jzb = nodeJzb({ visitorId: 'v1', url: 'http://127.0.0.1/' });
    const read = async (apiKey: string) => (await server.app.inject({ method: 'GET', url: `/data/guide.json/${apiKey}?jzb=${jzb}` })).json();
    const fields = [{ id: 'email', context: { selector: '#email' }, rules: [{ type: 'email', id: 'r1', ruleText: 'Enter an email address' }] }];
    await api('PUT', '/api/apps/forms-on/settings', { formValidation: { enabled: true, fields } });
    expect((await read('forms-on')).settings).toEqual({ formValidation: { fields } });
    await api('PUT', '/api/apps/forms-off/settings', { formValidation: { enabled: false, fields } });
    expect(await read('forms-off')).not.toHaveProperty('settings');
  });
});

describe('issue #14 duplicating a guide', () => {
  it('copies it as a new draft: id {id}-copy then -copy-2, name \'Copy of ...\', its steps\' ids kept, no publishedAt; 404 for none', async () => {
    const put = await api('PUT', '/api/apps/dup-app/guides/tour', { ...lightbox('tour'), translations: { fr: { name: 'Visite', steps: { 'tour-1': { domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: 'Bonjour' }] } } } } } });
    expect(put.statusCode, put.body).toBe(201);
    await api('POST', '/api/apps/dup-app/guides/tour/state', { state: 'public' });
    const first = await api('POST', '/api/apps/dup-app/guides/tour/duplicate');
    expect(first.statusCode).toBe(201);
    const copy = first.json();
    expect(copy.state).toBe('draft');
    expect(copy.guide).toMatchObject({ id: 'tour-copy', name: 'Copy of Guide tour', steps: [{ id: 'tour-1', guideId: 'tour-copy' }] });
    expect(copy.guide).not.toHaveProperty('publishedAt');
    expect(copy.guide.translations.fr.steps['tour-1']).toBeDefined();
    expect((await api('POST', '/api/apps/dup-app/guides/tour/duplicate')).json().guide.id).toBe('tour-copy-2');
    // The original is untouched and still public; the copies are not served until published.
    expect((await api('GET', '/api/apps/dup-app/guides/tour')).json()).toMatchObject({ state: 'public', guide: { id: 'tour', name: 'Guide tour' } });
    expect((await served('dup-app')).map((g) => g.id)).toEqual(['tour']);
    const missing = await api('POST', '/api/apps/dup-app/guides/nope/duplicate');
    expect([missing.statusCode, missing.json().error]).toEqual([404, "guide 'nope' not found in app 'dup-app'"]);
  });
});

describe('issue #17 the app\'s guide theme', () => {
  const tooltip = (own?: object) => ({
    ...lightbox('themed'),
    steps: [{ id: 'themed-1', type: 'tooltip', elementPathRule: '#go', ...(own ? { attributes: { theme: own } } : {}) }],
  });

  it('writes the settings\' theme into every served step, under the step\'s own values; none when unset', async () => {
    const states = { state: 'public' };
    await api('PUT', '/api/apps/plain-app/guides/themed', tooltip());
    await api('POST', '/api/apps/plain-app/guides/themed/state', states);
    const [plain] = await served('plain-app');
    expect((plain!.steps[0] as { attributes?: object }).attributes).toBeUndefined();

    const theme = { background: '#1e293b', text: '#f8fafc', accent: '#facc15', borderColor: '#facc15', borderWidth: 2, radius: 14 };
    expect((await api('PUT', '/api/apps/themed-app/settings', { theme })).json().theme).toEqual(theme);
    await api('PUT', '/api/apps/themed-app/guides/themed', tooltip({ radius: 4 }));
    await api('POST', '/api/apps/themed-app/guides/themed/state', states);
    const [themed] = await served('themed-app');
    expect((themed!.steps[0] as { attributes?: { theme?: object } }).attributes?.theme).toEqual({ ...theme, radius: 4 });
    // The stored guide keeps only its own values: a new theme reaches it at the next load.
    expect((await api('GET', '/api/apps/themed-app/guides/themed')).json().guide.steps[0].attributes).toEqual({ theme: { radius: 4 } });
    // The preview shows it as visitors see it.
    const preview = await api('GET', '/api/s/sub-1/guide/themed/preview?apiKey=themed-app&url=http%3A%2F%2F127.0.0.1%2F');
    expect(preview.json().guide.steps[0].attributes.theme).toEqual({ ...theme, radius: 4 });
  });

  it('puts the theme beside the launcher config, and leaves the config alone without one', async () => {
    const launcher = { enabled: true, data: { position: 'bottom-left' } };
    const theme = { accent: '#0f766e' };
    await api('PUT', '/api/apps/themed-launcher/settings', { launcher, theme });
    await api('PUT', '/api/apps/plain-launcher/settings', { launcher });
    const jzb = nodeJzb({ visitorId: 'v1', url: 'http://127.0.0.1/' });
    const read = async (apiKey: string) => (await server.app.inject({ method: 'GET', url: `/data/guide.json/${apiKey}?jzb=${jzb}` })).json().launcher;
    expect(await read('themed-launcher')).toEqual({ ...launcher, theme });
    expect(await read('plain-launcher')).toEqual(launcher);
  });

  it('refuses a guide whose step theme is not one, naming the field', async () => {
    const response = await api('PUT', '/api/apps/themed-app/guides/bad-theme', { ...lightbox('bad-theme'), steps: [{ id: 'bad-theme-1', type: 'lightbox', attributes: { theme: { accent: 'url(x)' } } }] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'step bad-theme-1: steps[0].attributes.theme.accent must be a colour written #rgb or #rrggbb',
      field: 'steps[0].attributes.theme.accent',
    });
  });

  it('guides §3 notificationBubble: kept and served as given when it is one, refused naming the field when not', async () => {
    const bubble = { background: '#0b7285', color: '#ffffff' };
    expect((await api('PUT', '/api/apps/bubble-app/guides/rc-bubble', { ...lightbox('rc-bubble'), notificationBubble: bubble })).statusCode).toBe(201);
    expect((await api('GET', '/api/apps/bubble-app/guides/rc-bubble')).json().guide.notificationBubble).toEqual(bubble);
    const bad = await api('PUT', '/api/apps/bubble-app/guides/rc-bubble', { ...lightbox('rc-bubble'), notificationBubble: { background: 'tomato' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'notificationBubble.background must be a colour written #rgb or #rrggbb', field: 'notificationBubble.background' });
  });
});

describe('issue #15 guides §7 preview endpoints', () => {
  it('answer a guide in any state with its pages, children and normalizedUrl; 404 Guide not found; 401 without login', async () => {
    await api('PUT', '/api/apps/preview-app/guides/rc', { ...lightbox('rc'), previewPages: ['http://127.0.0.1/help'] });
    await api('PUT', '/api/apps/preview-app/guides/child-a', lightbox('child-a'));
    await api('PUT', '/api/apps/preview-app/guides/child-b', lightbox('child-b'));
    const draft = await api('GET', '/api/s/sub-1/guide/rc/preview?apiKey=preview-app&url=http%3A%2F%2F127.0.0.1%2Fhelp');
    expect(draft.statusCode).toBe(200);
    expect(draft.json()).toMatchObject({ guide: { id: 'rc' }, pages: ['http://127.0.0.1/help'], children: [], normalizedUrl: 'http://127.0.0.1/help' });
    const center = await api('GET', '/api/s/sub-1/resourcecenter/rc/preview?apiKey=preview-app&childGuides=child-a,child-b,missing&ignoreGuide=child-b');
    expect(center.json().children.map((g: { id: string }) => g.id)).toEqual(['child-a']);
    // A guide the app still reads from the folder can be previewed too.
    expect((await api('GET', '/api/s/sub-1/guide/other/preview?apiKey=folder-app')).json().guide.id).toBe('other');
    const missing = await api('GET', '/api/s/sub-1/guide/nope/preview?apiKey=preview-app');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Guide not found' });
    expect((await api('GET', '/api/s/sub-1/guide/rc/preview')).json()).toEqual({ error: expect.stringMatching(/apiKey is required/), field: 'apiKey' });
    expect((await api('GET', '/api/s/sub-1/guide/rc/preview?apiKey=preview-app&url=javascript:alert(1)')).json().field).toBe('url');
    expect((await server.app.inject({ method: 'GET', url: '/api/s/sub-1/guide/rc/preview?apiKey=preview-app' })).statusCode).toBe(401);
  });
});

describe('issue #17 guides §3 targetAccount and publishedAt', () => {
  it("serves a guide with a targetAccount only to that account's visitors; a malformed one is refused by name", async () => {
    await api('PUT', '/api/apps/target-app/guides/for-acme', { ...lightbox('for-acme'), targetAccount: ['acme', 42] });
    await api('POST', '/api/apps/target-app/guides/for-acme/state', { state: 'public' });
    await api('PUT', '/api/apps/target-app/guides/for-all', lightbox('for-all'));
    await api('POST', '/api/apps/target-app/guides/for-all/state', { state: 'public' });
    const ids = async (accountId: string) => (await served('target-app', { accountId })).map((g) => g.id);
    expect(await ids('acme')).toEqual(['for-acme', 'for-all']);
    expect(await ids('42')).toEqual(['for-acme', 'for-all']);
    expect(await ids('globex')).toEqual(['for-all']);
    expect(await ids('')).toEqual(['for-all']);
    for (const targetAccount of [[], [''], { id: 'acme' }, true]) {
      const refused = await api('PUT', '/api/apps/target-app/guides/bad', { ...lightbox('bad'), targetAccount });
      expect(refused.statusCode, JSON.stringify(targetAccount)).toBe(400);
      expect(refused.json()).toEqual({ error: 'targetAccount must be an account id, or a list of account ids', field: 'targetAccount' });
    }
  });

  it('guides §4 Timebox: showsAfter and expiresAfter are stored as epoch ms (a numeric string too); a date in words or an end before the start is refused by name', async () => {
    const ok = await api('PUT', '/api/apps/schedule-app/guides/timed', { ...lightbox('timed'), showsAfter: 1_790_000_000_000, expiresAfter: '1800000000000' });
    expect(ok.statusCode).toBe(201);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ showsAfter: 'tomorrow' }, 'showsAfter', 'showsAfter must be a time in epoch milliseconds (got "tomorrow")'],
      [{ expiresAfter: { at: 1 } }, 'expiresAfter', 'expiresAfter must be a time in epoch milliseconds (got {"at":1})'],
      [{ showsAfter: 2_000, expiresAfter: 1_000 }, 'expiresAfter', 'expiresAfter is before showsAfter: the guide would never show'],
    ];
    for (const [fields, field, error] of cases) {
      const refused = await api('PUT', '/api/apps/schedule-app/guides/bad-time', { ...lightbox('bad-time'), ...fields });
      expect(refused.json(), JSON.stringify(fields)).toEqual({ error, field });
    }
  });

  it('sets publishedAt when a guide goes public, and keeps it when the guide is saved again without it', async () => {
    await api('PUT', '/api/apps/published-app/guides/news', lightbox('news'));
    expect((await api('GET', '/api/apps/published-app/guides/news')).json().guide.publishedAt).toBeUndefined();
    const before = Date.now();
    await api('POST', '/api/apps/published-app/guides/news/state', { state: 'public' });
    const publishedAt = (await api('GET', '/api/apps/published-app/guides/news')).json().guide.publishedAt;
    expect(publishedAt).toBeGreaterThanOrEqual(before);
    await api('PUT', '/api/apps/published-app/guides/news', { ...lightbox('news'), name: 'News, again' });
    const again = (await api('GET', '/api/apps/published-app/guides/news')).json().guide;
    expect([again.name, again.publishedAt]).toEqual(['News, again', publishedAt]);
    expect((await served('published-app'))[0]).toMatchObject({ id: 'news', publishedAt });
  });
});
