/**
 * Issue #31 fuzzing, wire-protocol.md "jzb" and "Endpoints": every GET endpoint that reads a jzb parameter, given
 * anything from arbitrary text to valid jzb of batches with random field values, answers below 500, refuses
 * with `{ error }`, and holds the heap within its bound.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { SERVER_TIMEOUT } from '../server/testServer';
import { fieldValue, jsonText, jsonTree, jzbOfText, jzbParam, nastyString } from './arbitraries';
import { fuzzTimeout, runFuzz } from './fuzzRun';
import { startServerUnderFuzz, type ServerUnderFuzz } from './serverUnderFuzz';

let server: ServerUnderFuzz;
beforeAll(async () => {
  server = await startServerUnderFuzz();
}, SERVER_TIMEOUT);
afterAll(() => server.close('jzb beacons'), SERVER_TIMEOUT);

/** The payload of guide.json and segmentflag.json: who the visitor is, fields random or missing. */
const subjectJzb = fc
  .record(
    {
      visitorId: fieldValue,
      accountId: fieldValue,
      url: fieldValue,
      oldVisitorId: fieldValue,
      metadata: fc.oneof(
        fieldValue,
        fc.record({ visitor: fc.oneof(fieldValue, fc.dictionary(fc.constantFrom('role', 'firstName', 'language', 'plan', 'id'), fieldValue)), account: fc.oneof(fieldValue, fc.dictionary(fc.constantFrom('plan', 'id'), fieldValue)), parentAccount: fieldValue }, { requiredKeys: [] }),
      ),
    },
    { requiredKeys: [] },
  )
  .map((subject) => jzbOfText(jsonText(subject)));

const GET_ENDPOINTS = ['ptm.gif', 'guide.gif', 'poll.gif', 'guide.json', 'segmentflag.json'] as const;

describe('issue #31 fuzzing: jzb on the GET endpoints', () => {
  it(
    'answers every jzb below 500, a refusal as { error }',
    async () => {
      const property = fc.asyncProperty(
        fc.constantFrom(...GET_ENDPOINTS),
        fc.oneof({ weight: 4, arbitrary: jzbParam }, { weight: 2, arbitrary: subjectJzb }, { weight: 1, arbitrary: jsonTree.map((tree) => jzbOfText(jsonText(tree))) }),
        fc.option(nastyString, { nil: undefined }),
        async (endpoint, jzb, id) => {
          const query = new URLSearchParams({ v: '0.1.0', ct: '1', jzb, ...(id !== undefined ? { id } : {}) });
          await server.send({ method: 'GET', url: `/data/${endpoint}/fuzz-jzb?${query}` });
        },
      );
      await runFuzz('jzb on the GET endpoints', property, 300);
    },
    fuzzTimeout(60_000),
  );
});
