/**
 * Issue #31 fuzzing of request bodies: the POSTed beacon, the error log, the health report, recording chunks, and
 * the console's guide and settings saves, each given valid bodies with a few fields changed to random values (and
 * now and then anything at all). Every answer is below 500, a refusal `{ error }`; what a route accepts is read back
 * through the routes that show it (the event list, the console's overview, the health page, the recording, the
 * guide list and guide.json), which must answer below 500 too.
 */
import { deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { MONITOR_COUNT_NAMES } from '../../shared/wire/monitorReport';
import { ADMIN_HEADERS, SERVER_TIMEOUT } from '../server/testServer';
import { batchTree, fieldValue, jsonText, jsonTree, jzbOfText, mutated, nastyString } from './arbitraries';
import { shown } from './checkAnswer';
import { fuzzTimeout, runFuzz } from './fuzzRun';
import { startServerUnderFuzz, type ServerUnderFuzz } from './serverUnderFuzz';

let server: ServerUnderFuzz;
beforeAll(async () => {
  server = await startServerUnderFuzz();
  // The recording property's app records, so an accepted chunk is stored and read back.
  await server.send({ method: 'PUT', url: '/api/apps/fuzz-recording/settings', headers: ADMIN_HEADERS, payload: { recording: { enabled: true, sampleRate: 1 } } });
}, SERVER_TIMEOUT);
afterAll(() => server.close('JSON bodies'), SERVER_TIMEOUT);

/** Cases per property in npm test. */
const RUNS = 200;
const TIMEOUT = fuzzTimeout(60_000);
const NOW = 1_790_000_000_000;

/** How a body goes: JSON, or the same text as text/plain (navigator.sendBeacon). */
const contentType = fc.constantFrom('application/json', 'text/plain;charset=UTF-8');

/** A body text: the JSON of a tree (RawJson number literals as written), or now and then text that is not JSON. */
const bodyText = (tree: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 8, arbitrary: tree.map(jsonText) }, { weight: 1, arbitrary: nastyString });

/** True for a 2xx: what was accepted is read back. */
const accepted = (status: number) => status >= 200 && status < 300;

describe('issue #31 fuzzing: request bodies', () => {
  it(
    'POST /data/ptm.gif and guide.gif: {"events": batch, jzb or anything}, as JSON and as text/plain',
    async () => {
      const events = fc.oneof(
        { weight: 4, arbitrary: batchTree },
        { weight: 3, arbitrary: batchTree.map((batch) => jzbOfText(jsonText(batch))) },
        { weight: 1, arbitrary: fieldValue },
      );
      const body = fc.oneof(
        { weight: 6, arbitrary: fc.record({ events, jwt: fieldValue, signingKeyName: fieldValue }, { requiredKeys: ['events'] }) },
        { weight: 1, arbitrary: jsonTree },
      );
      const property = fc.asyncProperty(fc.constantFrom('ptm.gif', 'guide.gif'), bodyText(body), contentType, async (endpoint, payload, type) => {
        const response = await server.send({ method: 'POST', url: `/data/${endpoint}/fuzz-post`, headers: { 'content-type': type }, payload });
        if (!accepted(response.statusCode)) return;
        await server.send({ method: 'GET', url: '/api/events?apiKey=fuzz-post&limit=5', headers: ADMIN_HEADERS });
        await server.send({ method: 'GET', url: `/api/apps/fuzz-post/overview?from=${NOW - 86_400_000}&to=${NOW + 86_400_000}`, headers: ADMIN_HEADERS });
      });
      await runFuzz('POST ptm.gif bodies', property, RUNS);
    },
    TIMEOUT,
  );

  it(
    'POST /data/errorlog?apiKey=: {error, version, visitorId} changed, or anything',
    async () => {
      const report = mutated({ error: 'TypeError: x is undefined', version: '0.1.0', visitorId: 'visitor-1' }, ['error', 'version', 'visitorId']);
      const property = fc.asyncProperty(bodyText(fc.oneof({ weight: 5, arbitrary: report }, { weight: 1, arbitrary: jsonTree })), contentType, async (payload, type) => {
        const response = await server.send({ method: 'POST', url: '/data/errorlog?apiKey=fuzz-errorlog', headers: { 'content-type': type }, payload });
        if (accepted(response.statusCode)) await server.send({ method: 'GET', url: '/api/logs?apiKey=fuzz-errorlog&limit=5', headers: ADMIN_HEADERS });
      });
      await runFuzz('POST errorlog bodies', property, RUNS);
    },
    TIMEOUT,
  );

  it(
    'POST /data/monitor?apiKey=: a health report changed, or anything',
    async () => {
      const valid = {
        version: '0.1.0',
        visitorId: 'visitor-1',
        sessionId: 'session-1',
        from: NOW,
        to: NOW + 300_000,
        counts: Object.fromEntries(MONITOR_COUNT_NAMES.map((name, i) => [name, i])),
      };
      const paths = ['version', 'visitorId', 'sessionId', 'from', 'to', 'counts', ...MONITOR_COUNT_NAMES.map((name) => `counts.${name}`)];
      const report = fc.oneof({ weight: 5, arbitrary: mutated(valid, paths) }, { weight: 1, arbitrary: jsonTree });
      const property = fc.asyncProperty(bodyText(report), contentType, async (payload, type) => {
        const response = await server.send({ method: 'POST', url: '/data/monitor?apiKey=fuzz-monitor', headers: { 'content-type': type }, payload });
        if (accepted(response.statusCode)) {
          await server.send({ method: 'GET', url: `/api/apps/fuzz-monitor/health?from=${NOW - 86_400_000}&to=${NOW + 86_400_000}`, headers: ADMIN_HEADERS });
        }
      });
      await runFuzz('POST monitor bodies', property, RUNS);
    },
    TIMEOUT,
  );

  it(
    'POST /data/recording/{apiKey}: zlib of a chunk changed, of anything, gzip, raw bytes',
    async () => {
      const valid = {
        recordingId: 'recording-1',
        sessionId: 'session-1',
        visitorId: 'visitor-1',
        accountId: 'acme',
        tabId: 'tab-1',
        frameId: 'frame-1',
        url: 'http://127.0.0.1/reports',
        chunk: 0,
        events: [
          { type: 4, data: { href: 'http://127.0.0.1/reports', width: 800, height: 600 }, timestamp: NOW },
          { type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { left: 0, top: 0 } }, timestamp: NOW + 1 },
          { type: 3, data: { source: 2, type: 2, id: 1, x: 10, y: 20 }, timestamp: NOW + 500 },
        ],
      };
      const paths = [
        'recordingId', 'sessionId', 'visitorId', 'accountId', 'tabId', 'frameId', 'url', 'chunk', 'events', 'events.0',
        'events.0.type', 'events.0.data', 'events.0.timestamp', 'events.1.data.node', 'events.2.timestamp', 'events.2.data.x',
      ];
      // Chunk and recording ids from a small set: a chunk stored twice is a replay, and one recording gathers several.
      const chunk = mutated(valid, paths).chain((tree) =>
        fc.tuple(fc.constantFrom('recording-1', 'recording-2'), fc.nat({ max: 3 })).map(([id, n]) =>
          typeof tree === 'object' && tree !== null && !Array.isArray(tree) && (tree as { recordingId?: unknown }).recordingId === 'recording-1' ? { ...tree, recordingId: id, chunk: n } : tree,
        ),
      );
      const body = fc.oneof(
        { weight: 6, arbitrary: chunk.map((tree) => deflateSync(Buffer.from(jsonText(tree)))) },
        { weight: 1, arbitrary: jsonTree.map((tree) => deflateSync(Buffer.from(jsonText(tree)))) },
        { weight: 1, arbitrary: chunk.map((tree) => gzipSync(Buffer.from(jsonText(tree)))) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
      );
      const type = fc.constantFrom('application/octet-stream', 'text/plain', 'application/json', '');
      const property = fc.asyncProperty(body, type, async (payload, contentTypeHeader) => {
        const headers = contentTypeHeader ? { 'content-type': contentTypeHeader } : {};
        const response = await server.send({ method: 'POST', url: '/data/recording/fuzz-recording?v=0.1.0&ct=1', headers, payload }, `POST recording body (base64) ${shown(payload.toString('base64'))}`);
        if (!accepted(response.statusCode)) return;
        const list = await server.send({ method: 'GET', url: '/api/apps/fuzz-recording/recordings?limit=5', headers: ADMIN_HEADERS });
        for (const { id } of (list.json() as { recordings: Array<{ id: string }> }).recordings.slice(0, 2)) {
          await server.send({ method: 'GET', url: `/api/apps/fuzz-recording/recordings/${encodeURIComponent(id)}`, headers: ADMIN_HEADERS });
        }
      });
      await runFuzz('POST recording chunks', property, RUNS);
    },
    TIMEOUT,
  );

  it(
    'PUT /api/apps/{apiKey}/guides/{id}: a guide changed; an accepted one published and served',
    async () => {
      const domJson = { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: 'Hello' }, { type: 'button', props: { 'data-action': 'next' }, content: 'Next' }] };
      const valid = {
        id: 'fuzz-guide',
        name: 'Fuzzed guide',
        launchMethod: 'auto',
        audience: { when: { 'visitor.role': { in: ['admin'] } } },
        targetAccount: ['acme'],
        showsAfter: NOW - 1000,
        expiresAfter: NOW + 86_400_000,
        authoredLanguage: 'en',
        translations: { fr: { name: 'Bonjour', steps: { 'fuzz-1': { domJson } } } },
        notificationBubble: { background: '#ff0000', color: '#ffffff' },
        attributes: { resourceCenter: { isTopLevel: false } },
        steps: [
          { id: 'fuzz-1', type: 'lightbox', domJson, attributes: { theme: { background: '#ffffff', radius: 4 } } },
          { id: 'fuzz-2', type: 'tooltip', elementPathRule: '#create-report', regexUrlRule: '^http://127\\.0\\.0\\.1/reports', domJson },
          { id: 'fuzz-3', type: 'lightbox', markdown: '# Hi {{visitor.firstName | there}}\n\n[[Back]] [[Next]]' },
        ],
      };
      const paths = [
        'id', 'name', 'launchMethod', 'audience', 'audience.when', 'targetAccount', 'showsAfter', 'expiresAfter', 'authoredLanguage',
        'translations', 'translations.fr', 'translations.fr.steps', 'notificationBubble', 'notificationBubble.background', 'attributes',
        'attributes.resourceCenter', 'state', 'steps', 'steps.0', 'steps.0.id', 'steps.0.type', 'steps.0.domJson', 'steps.0.domJson.type',
        'steps.0.domJson.props', 'steps.0.domJson.children', 'steps.0.domJson.children.0.content', 'steps.0.attributes.theme',
        'steps.0.attributes.theme.radius', 'steps.0.guideId', 'steps.1.elementPathRule', 'steps.1.regexUrlRule', 'steps.1.type',
        'steps.2.markdown', 'steps.2.id',
      ];
      const guide = fc.oneof({ weight: 8, arbitrary: mutated(valid, paths) }, { weight: 1, arbitrary: jsonTree });
      const property = fc.asyncProperty(guide, async (tree) => {
        const put = await server.send({ method: 'PUT', url: '/api/apps/fuzz-guides/guides/fuzz-guide', headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' }, payload: jsonText(tree) });
        if (!accepted(put.statusCode)) return;
        await server.send({ method: 'POST', url: '/api/apps/fuzz-guides/guides/fuzz-guide/state', headers: ADMIN_HEADERS, payload: { state: 'public' } });
        await server.send({ method: 'GET', url: '/api/apps/fuzz-guides/guides', headers: ADMIN_HEADERS });
        const subject = { visitorId: 'visitor-1', accountId: 'acme', url: 'http://127.0.0.1/reports', metadata: { visitor: { role: 'admin', firstName: 'Dana', language: 'fr' } } };
        await server.send({ method: 'GET', url: `/data/guide.json/fuzz-guides?jzb=${jzbOfText(JSON.stringify(subject))}` });
        await server.send({ method: 'POST', url: '/api/apps/fuzz-guides/guides/fuzz-guide/duplicate', headers: ADMIN_HEADERS });
        await server.send({ method: 'DELETE', url: '/api/apps/fuzz-guides/guides/fuzz-guide-copy', headers: ADMIN_HEADERS });
      });
      await runFuzz('PUT guide bodies', property, RUNS);
    },
    TIMEOUT,
  );

  it(
    'PUT /api/apps/{apiKey}/settings: settings changed; accepted ones read back and served',
    async () => {
      const valid = {
        launcher: { enabled: true, data: { position: 'bottom-left' } },
        guides: { throttling: { enabled: true, interval: 2, unit: 'hour' }, adoptionGuides: 'after' },
        recording: { enabled: true, sampleRate: 0.5 },
        formValidation: {
          enabled: true,
          fields: [{ id: 'email', context: { selector: '#settings-email', url: '/settings' }, rules: [{ type: 'characterLength', id: 'len', ruleText: '2 to 60', options: { min: 2, max: 60 } }] }],
        },
        guideMarkdown: true,
        theme: { background: '#ffffff', text: '#111111', accent: '#0055ff', borderColor: '#cccccc', borderWidth: 1, radius: 6 },
      };
      const paths = [
        'launcher', 'launcher.enabled', 'launcher.data', 'launcher.data.position', 'guides', 'guides.throttling', 'guides.throttling.interval',
        'guides.throttling.unit', 'guides.adoptionGuides', 'recording', 'recording.enabled', 'recording.sampleRate', 'formValidation',
        'formValidation.fields', 'formValidation.fields.0', 'formValidation.fields.0.id', 'formValidation.fields.0.context.selector',
        'formValidation.fields.0.rules', 'formValidation.fields.0.rules.0.type', 'formValidation.fields.0.rules.0.options',
        'formValidation.fields.0.rules.0.options.min', 'formValidation.fields.0.rules.0.ruleText', 'guideMarkdown', 'theme',
        'theme.background', 'theme.radius', 'quotas',
      ];
      const settings = fc.oneof({ weight: 8, arbitrary: mutated(valid, paths) }, { weight: 1, arbitrary: jsonTree });
      const property = fc.asyncProperty(settings, async (tree) => {
        const put = await server.send({ method: 'PUT', url: '/api/apps/fuzz-settings/settings', headers: { ...ADMIN_HEADERS, 'content-type': 'application/json' }, payload: jsonText(tree) });
        if (!accepted(put.statusCode)) return;
        await server.send({ method: 'GET', url: '/api/apps/fuzz-settings/settings', headers: ADMIN_HEADERS });
        await server.send({ method: 'GET', url: '/data/recording.json/fuzz-settings' });
        await server.send({ method: 'GET', url: `/data/guide.json/fuzz-settings?jzb=${jzbOfText('{"visitorId":"visitor-1"}')}` });
      });
      await runFuzz('PUT settings bodies', property, RUNS);
    },
    TIMEOUT,
  );
});
