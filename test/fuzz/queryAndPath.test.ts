/**
 * Issue #31 fuzzing of paths and query strings: every route family of the collector and the console's API, with odd
 * api keys and ids in the path (encoded slashes, dots, NUL, lone surrogates as %ED%A0%80, unicode, over 100
 * characters) and random query parameters (the routes' own names and others, repeated, empty, very long, NUL,
 * malformed escapes). Every answer is below 500, a refusal `{ error }`.
 *
 * Sent through `app.inject`, whose URL parser (WHATWG) resolves `.` and `..` segments before the router sees them:
 * raw request targets are the business of test/server's raw-socket tests of route spellings.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ADMIN_HEADERS, SERVER_TIMEOUT, nodeJzb, wireEvent } from '../server/testServer';
import { nastyString, percentEncode } from './arbitraries';
import { fuzzTimeout, runFuzz } from './fuzzRun';
import { startServerUnderFuzz, type ServerUnderFuzz } from './serverUnderFuzz';

let server: ServerUnderFuzz;
beforeAll(async () => {
  server = await startServerUnderFuzz();
  // Something to find: events, a guide, a log line, so the reads have rows to filter and page.
  await server.send({ method: 'GET', url: `/data/ptm.gif/fuzz-query?jzb=${nodeJzb([wireEvent(), wireEvent({ type: 'identify' })])}` });
  await server.send({ method: 'GET', url: '/data/log.gif/fuzz-query?msg=hello&version=0.1.0' });
}, SERVER_TIMEOUT);
afterAll(() => server.close('query strings and paths'), SERVER_TIMEOUT);

/** A path segment or query value as sent: encoded text, or raw odd escapes. */
const oddPart: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: nastyString.map(percentEncode) },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%00', 'a%00b', '%ED%A0%80', '%ED%BF%BF', '%C0%AF', '%FF', '%E2%82', '%', '%zz', '%2', '%2F', 'a%2Fb', '%2e%2e', '%5C', '.', '..', '...', ';x=1', 'é',
      '%F0%9F%98%80', '%EF%BB%BF', '+', '%20', 'a b', '~', 'k'.repeat(100), 'k'.repeat(101), '%61pi', 'demo-app', 'fuzz-query',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 90_000 }).map((n) => 'x'.repeat(n)) },
);

/** Query parameter names: those the routes read, and others. */
const paramName: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'jzb', 'id', 'v', 'ct', 's', 'rt', 'type', 'source', 'apiKey', 'limit', 'from', 'to', 'bucket', 'q', 'kind', 'visitorId',
      'accountId', 'after', 'before', 'msg', 'version', 'sort', 'order', 'page', 'guideId', 'state', 'event', 'url',
    ),
  },
  { weight: 1, arbitrary: oddPart },
);

/** Query values: odd parts, numbers that are not quite numbers, a valid jzb. */
const paramValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: oddPart },
  { weight: 2, arbitrary: fc.constantFrom('', '0', '-1', '1', '1.5', '1e400', '99999999999999999999', '1790000000000', 'NaN', 'hour', 'day', 'week', 'log', 'error', 'true') },
  { weight: 1, arbitrary: fc.constant(nodeJzb([wireEvent()])) },
);

/** A query string: pairs, repeated names, a bare name, an empty pair. */
const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: fc.tuple(paramName, paramValue).map(([name, value]) => `${name}=${value}`) },
      { weight: 1, arbitrary: paramName },
      { weight: 1, arbitrary: fc.constantFrom('', '=', '&', '==') },
    ),
    { maxLength: 6 },
  )
  .chain((pairs) => fc.boolean().map((twice) => (twice && pairs.length ? [...pairs, pairs[0]!] : pairs).join('&')));

/** Route templates: {k} an api key, {i} an id. Every route family of the collector and of the console's API. */
const ROUTES: ReadonlyArray<readonly [string, string]> = [
  ['GET', '/data/ptm.gif/{k}'], ['POST', '/data/ptm.gif/{k}'], ['GET', '/data/guide.gif/{k}'], ['GET', '/data/poll.gif/{k}'],
  ['GET', '/data/guide.json/{k}'], ['POST', '/data/guide.json/{k}'], ['GET', '/data/segmentflag.json/{k}'], ['GET', '/data/log.gif/{k}'],
  ['POST', '/data/errorlog'], ['POST', '/data/monitor'], ['GET', '/data/recording.json/{k}'], ['POST', '/data/recording/{k}'],
  ['GET', '/data/guide-assets/{i}'], ['OPTIONS', '/data/ptm.gif/{k}'], ['GET', '/data/{i}'],
  ['GET', '/api/events'], ['GET', '/api/logs'], ['GET', '/api/apps'], ['GET', '/api/apps/{k}/overview'], ['GET', '/api/apps/{k}/events'],
  ['GET', '/api/apps/{k}/events.csv'], ['GET', '/api/apps/{k}/events/{i}'], ['GET', '/api/apps/{k}/visitors'], ['GET', '/api/apps/{k}/visitors/{i}'],
  ['GET', '/api/apps/{k}/visitors/{i}/guides'], ['GET', '/api/apps/{k}/accounts'], ['GET', '/api/apps/{k}/accounts/{i}'],
  ['GET', '/api/apps/{k}/guides'], ['GET', '/api/apps/{k}/guides/{i}'], ['GET', '/api/apps/{k}/guides/{i}/stats'],
  ['POST', '/api/apps/{k}/guides/{i}/state'], ['POST', '/api/apps/{k}/guides/{i}/duplicate'], ['DELETE', '/api/apps/{k}/guides/{i}'],
  ['GET', '/api/apps/{k}/settings'], ['GET', '/api/apps/{k}/settings/theme'], ['GET', '/api/apps/{k}/health'],
  ['GET', '/api/apps/{k}/recordings'], ['GET', '/api/apps/{k}/recordings/{i}'], ['GET', '/api/s/{k}/guide/{i}/preview'],
  ['GET', '/api/s/{k}/resourcecenter/{i}/preview'], ['GET', '/api/health'], ['GET', '/api/session'], ['GET', '/{i}'],
];

describe('issue #31 fuzzing: query strings and paths', () => {
  it(
    'answers every path and query below 500, a refusal as { error }',
    async () => {
      const property = fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        oddPart,
        oddPart,
        queryString,
        fc.boolean(),
        async ([method, template], key, id, query, admin) => {
          const path = template.replace('{k}', key).replace('{i}', id);
          const url = query ? `${path}?${query}` : path;
          await server.send({
            method: method as 'GET',
            url,
            headers: { ...(admin ? ADMIN_HEADERS : {}), ...(method === 'OPTIONS' ? { origin: 'http://127.0.0.1:9', 'access-control-request-method': 'POST' } : {}) },
            ...(method === 'POST' ? { payload: { events: [] } } : {}),
          });
        },
      );
      await runFuzz('query strings and paths', property, 500);
    },
    fuzzTimeout(60_000),
  );
});
