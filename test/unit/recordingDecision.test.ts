/**
 * issue #18 session recording, whether a page records: recording.json asked once per page, one draw against
 * sampleRate per session id, kept with the session (fake-indexeddb), so every page of a session answers alike;
 * the reason logged when not.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createRecordingDecision, DECISION_READ_TIMEOUT_MS } from '../../worker/recording/createRecordingDecision';
import { createRecordingStore } from '../../worker/recording/recordingStore';
import { createFakeClock, createFakeTransport } from './fakes';

function page(config: string, random: () => number, status = 200) {
  const transport = createFakeTransport();
  transport.bodies.push({ match: '/data/recording.json/key', body: config, status });
  const logs: string[] = [];
  const decide = createRecordingDecision({
    apiKey: 'key',
    dataHost: 'http://collector.test',
    ports: { transport, clock: createFakeClock(), recordings: createRecordingStore(), random },
    log: (_l, m) => void logs.push(m),
  });
  return { transport, logs, decide };
}

describe('issue #18 recording decision', () => {
  it('draws once per session id and keeps the draw: a later page of the session answers the same', async () => {
    const on = '{"enabled":true,"sampleRate":0.5}';
    const first = page(on, () => 0.3);
    expect(await first.decide('session-A')).toBe(true);
    // A later page load of the same session draws high: the kept decision stands.
    const later = page(on, () => 0.9);
    expect(await later.decide('session-A')).toBe(true);
    // Another session draws its own.
    expect(await later.decide('session-B')).toBe(false);
    expect(later.logs).toContain('not recording: this session was not sampled (sampleRate 0.5)');
    const again = page(on, () => 0.1);
    expect(await again.decide('session-B')).toBe(false);
  });

  it('asks recording.json once per page', async () => {
    const p = page('{"enabled":true,"sampleRate":1}', () => 0.99);
    expect(await p.decide('session-C')).toBe(true);
    expect(await p.decide('session-C')).toBe(true);
    expect(p.transport.requests.map((r) => [r.method, r.url])).toEqual([['GET', 'http://collector.test/data/recording.json/key']]);
  });

  it('does not record when the app has recording off, or recording.json does not answer, and says why', async () => {
    const off = page('{"enabled":false,"sampleRate":1}', () => 0);
    expect(await off.decide('session-D')).toBe(false);
    expect(off.logs).toContain('not recording: recording is off for this app');
    const missing = page('not found', () => 0, 404);
    expect(await missing.decide('session-D')).toBe(false);
    expect(missing.logs).toContain('not recording: recording.json answered 404');
    const sampleZero = page('{"enabled":true,"sampleRate":0}', () => 0);
    expect(await sampleZero.decide('session-E')).toBe(false);
  });
});

describe('issue #32 recording decision where IndexedDB does not answer', () => {
  it('draws for this page after DECISION_READ_TIMEOUT_MS, says so, and does not wait for the write either', async () => {
    const transport = createFakeTransport();
    transport.bodies.push({ match: '/data/recording.json/key', body: '{"enabled":true,"sampleRate":1}', status: 200 });
    const clock = createFakeClock();
    const logs: string[] = [];
    const never = () => new Promise<never>(() => undefined);
    const recordings = { ...createRecordingStore(), get: never, put: never };
    const decide = createRecordingDecision({ apiKey: 'key', dataHost: 'http://collector.test', ports: { transport, clock, recordings, random: () => 0.5 }, log: (_l, m) => void logs.push(m) });
    let answer: boolean | undefined;
    void decide('session-W').then((a) => (answer = a));
    // recording.json answered first (the fake transport's promise), then the read's clock starts.
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
    await clock.advance(DECISION_READ_TIMEOUT_MS - 1);
    expect(answer).toBeUndefined();
    await clock.advance(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(answer).toBe(true);
    expect(logs.join('\n')).toContain('not read in time');
  });
});
