import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_RETRY_DELAYS_MS, importChunk } from '../../shim/importChunk';

describe('lazy chunks: a failed fetch is tried again under a URL of its own', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads at once when the first fetch works, asking for the plain URL only', async () => {
    const asked: string[] = [];
    const chunk = await importChunk<{ name: string }>('https://cdn.test/a/waymark.guides.js', async (u) => (asked.push(u), { name: 'guides' }));
    expect(chunk).toEqual({ name: 'guides' });
    expect(asked).toEqual(['https://cdn.test/a/waymark.guides.js']);
  });

  it('retries after 500 ms and then 2000 ms, each under its own retry query, and resolves with the chunk', async () => {
    const asked: Array<[string, number]> = [];
    const load = async (u: string) => {
      asked.push([u, Date.now()]);
      if (asked.length < 3) throw new TypeError('Failed to fetch dynamically imported module');
      return { ok: true };
    };
    const start = Date.now();
    const result = importChunk('/agent/waymark.overlay.js?v=1#x', load);
    await vi.runAllTimersAsync();
    await expect(result).resolves.toEqual({ ok: true });
    expect(asked.map(([u]) => u)).toEqual([
      '/agent/waymark.overlay.js?v=1#x',
      '/agent/waymark.overlay.js?v=1&waymark_retry=1#x',
      '/agent/waymark.overlay.js?v=1&waymark_retry=2#x',
    ]);
    expect(asked.map(([, t]) => t - start)).toEqual([0, CHUNK_RETRY_DELAYS_MS[0], CHUNK_RETRY_DELAYS_MS[0]! + CHUNK_RETRY_DELAYS_MS[1]!]);
    expect(CHUNK_RETRY_DELAYS_MS).toEqual([500, 2000]);
  });

  it('rejects with the last error after three failed tries', async () => {
    let n = 0;
    const result = importChunk('https://cdn.test/waymark.privacy.js', async () => {
      throw new Error(`reset ${++n}`);
    });
    const settled = result.catch((err: Error) => err.message);
    await vi.runAllTimersAsync();
    expect(await settled).toBe('reset 3');
    expect(n).toBe(3);
  });
});
