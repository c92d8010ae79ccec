import { describe, expect, it } from 'vitest';
import { UNSENT_EVENT_TTL_MS } from '../../shared/constants';
import { createChunkStore } from '../../worker/createChunkStore';
import type { QueueItem } from '../../worker/createSendQueue';
import { createMemoryQueueStore } from '../../worker/ports';
import { createFakeClock } from './fakes';

const item = (json: string, track = false): QueueItem => ({ json, track });

function setup(persistKey = 'key|ptm.gif|frame-b') {
  const store = createMemoryQueueStore();
  const clock = createFakeClock(1_000_000);
  const logs: string[] = [];
  const chunks = createChunkStore({ store, persistKey, restorePrefix: 'key|ptm.gif|', clock, log: (_l, m) => logs.push(m) });
  return { store, clock, logs, chunks };
}

describe('analytics §4 durable delivery: the send queue\'s chunks', () => {
  it('keeps a hand-over as one chunk until every event of it is done with', async () => {
    const { store, chunks } = setup();
    const items = [item('{"a":1}'), item('{"b":2}', true)];
    chunks.save(items);
    await Promise.resolve();
    expect(items.map((i) => i.chunk)).toEqual(['key|ptm.gif|frame-b|0', 'key|ptm.gif|frame-b|0']);
    expect(store.data.get('key|ptm.gif|frame-b|0')).toEqual({ savedAt: 1_000_000, items: [{ json: '{"a":1}', track: false }, { json: '{"b":2}', track: true }] });
    chunks.release([items[0]!]);
    await Promise.resolve();
    expect(store.data.has('key|ptm.gif|frame-b|0')).toBe(true);
    chunks.release([items[1]!]);
    await Promise.resolve();
    expect(store.data.size).toBe(0);
  });

  it('analytics §9: restores earlier pages\' chunks oldest first, drops those older than 6 days, skips its own', async () => {
    const { store, clock, chunks } = setup();
    const now = clock.now();
    await store.put('key|ptm.gif|frame-a|1', { savedAt: now - 10, items: [{ json: 'newer', track: false }] });
    await store.put('key|ptm.gif|frame-a|0', { savedAt: now - 20, items: [{ json: 'older', track: true }] });
    await store.put('key|ptm.gif|frame-z|0', { savedAt: now - UNSENT_EVENT_TTL_MS - 1, items: [{ json: 'expired', track: false }] });
    await store.put('key|guide.gif|frame-a|0', { savedAt: now - 5, items: [{ json: 'other endpoint', track: false }] });
    await store.put('key|ptm.gif|frame-b|7', { savedAt: now - 5, items: [{ json: 'this page', track: false }] });
    const restored = await chunks.restore();
    expect(restored).toEqual([
      { json: 'older', track: true, chunk: 'key|ptm.gif|frame-a|0' },
      { json: 'newer', track: false, chunk: 'key|ptm.gif|frame-a|1' },
    ]);
    await Promise.resolve();
    expect(store.data.has('key|ptm.gif|frame-z|0')).toBe(false);
    expect(store.data.has('key|guide.gif|frame-a|0')).toBe(true);
    chunks.release([restored[0]!]);
    await Promise.resolve();
    expect(store.data.has('key|ptm.gif|frame-a|0')).toBe(false);
  });

  it('logs once when the store fails, and restores nothing', async () => {
    const { chunks, logs, store } = setup();
    store.entries = async () => { throw new Error('quota'); };
    store.put = async () => { throw new Error('quota'); };
    expect(await chunks.restore()).toEqual([]);
    chunks.save([item('x')]);
    await new Promise((r) => setTimeout(r, 0));
    expect(logs).toEqual(['unsent events cannot be kept across page loads: Error: quota']);
  });
});
