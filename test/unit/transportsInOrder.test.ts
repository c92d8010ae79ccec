/**
 * analytics §7 "Transports in order: fetch with keepalive, beacon send, XHR": the page-hide beacon
 * (shim/sendTail.ts postTail) and the worker's transport (worker/ports.ts fetchTransport) each try the next
 * transport when one is missing or refuses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postTail } from '../../shim/sendTail';
import { fetchTransport } from '../../worker/ports';

/** A fake XMLHttpRequest that records what was sent and answers `status` (or fails when null). */
function fakeXhr(sent: Array<{ method: string; url: string; body: unknown }>, status: number | null = 200) {
  return class {
    status = 0;
    statusText = '';
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private method = '';
    private url = '';
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader() {}
    getResponseHeader() {
      return null;
    }
    send(body: unknown) {
      sent.push({ method: this.method, url: this.url, body });
      queueMicrotask(() => {
        if (status === null) return this.onerror?.();
        this.status = status;
        this.responseText = 'ok';
        this.onload?.();
      });
    }
  };
}

const flushMicrotasks = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('page-hide beacon: fetch with keepalive, then sendBeacon, then XHR', () => {
  const url = 'http://127.0.0.1:1/data/ptm.gif/k?source=pagehide';
  const body = '{"events":[]}';

  it('uses fetch with keepalive first, and nothing else when it goes', async () => {
    const fetch = vi.fn(async () => new Response(null));
    const sendBeacon = vi.fn(() => true);
    const xhrs: Array<{ method: string; url: string; body: unknown }> = [];
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('navigator', { sendBeacon });
    vi.stubGlobal('XMLHttpRequest', fakeXhr(xhrs));
    postTail(url, body);
    await flushMicrotasks();
    expect(fetch).toHaveBeenCalledWith(url, expect.objectContaining({ method: 'POST', body, keepalive: true, credentials: 'omit', mode: 'no-cors' }));
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(xhrs).toEqual([]);
  });

  it('falls back to sendBeacon when the keepalive fetch is refused (over the quota)', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('keepalive request exceeds the quota'))));
    const sendBeacon = vi.fn(() => true);
    const xhrs: Array<{ method: string; url: string; body: unknown }> = [];
    vi.stubGlobal('navigator', { sendBeacon });
    vi.stubGlobal('XMLHttpRequest', fakeXhr(xhrs));
    postTail(url, body);
    await flushMicrotasks();
    expect(sendBeacon).toHaveBeenCalledWith(url, body);
    expect(xhrs).toEqual([]);
  });

  it('falls back to XHR when fetch throws and sendBeacon refuses', async () => {
    vi.stubGlobal('fetch', () => {
      throw new TypeError('fetch was replaced by the page');
    });
    const sendBeacon = vi.fn(() => false);
    const xhrs: Array<{ method: string; url: string; body: unknown }> = [];
    vi.stubGlobal('navigator', { sendBeacon });
    vi.stubGlobal('XMLHttpRequest', fakeXhr(xhrs));
    postTail(url, body);
    await flushMicrotasks();
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    expect(xhrs).toEqual([{ method: 'POST', url, body }]);
  });

  it('falls back to XHR where there is neither fetch nor sendBeacon', async () => {
    vi.stubGlobal('fetch', undefined);
    vi.stubGlobal('navigator', {});
    const xhrs: Array<{ method: string; url: string; body: unknown }> = [];
    vi.stubGlobal('XMLHttpRequest', fakeXhr(xhrs));
    postTail(url, body);
    await flushMicrotasks();
    expect(xhrs).toEqual([{ method: 'POST', url, body }]);
  });
});

describe("the worker's transport: fetch with keepalive, then XHR", () => {
  const req = { method: 'POST' as const, url: 'http://127.0.0.1:1/data/ptm.gif/k', body: '{"events":"x"}', contentType: 'application/json' };

  it('answers with fetch when it goes, keepalive for a small body', async () => {
    const fetch = vi.fn(async () => new Response('fine', { status: 200 }));
    const xhrs: Array<{ method: string; url: string; body: unknown }> = [];
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('XMLHttpRequest', fakeXhr(xhrs));
    const res = await fetchTransport.request(req);
    expect(res.status).toBe(200);
    expect(fetch).toHaveBeenCalledWith(req.url, expect.objectContaining({ keepalive: true, credentials: 'omit' }));
    expect(xhrs).toEqual([]);
  });

  it('sends by XHR at once when fetch is refused, and answers with its status', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('keepalive request exceeds the quota'))));
    const xhrs: Array<{ method: string; url: string; body: unknown }> = [];
    vi.stubGlobal('XMLHttpRequest', fakeXhr(xhrs, 202));
    const res = await fetchTransport.request(req);
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('ok');
    expect(xhrs).toEqual([{ method: 'POST', url: req.url, body: req.body }]);
  });

  it("rejects with fetch's own error when XHR fails too (the network is down)", async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const xhrs: Array<{ method: string; url: string; body: unknown }> = [];
    vi.stubGlobal('XMLHttpRequest', fakeXhr(xhrs, null));
    await expect(fetchTransport.request(req)).rejects.toThrow('Failed to fetch');
    expect(xhrs).toHaveLength(1);
  });

  it('uses XHR where the worker has no fetch', async () => {
    vi.stubGlobal('fetch', undefined);
    const xhrs: Array<{ method: string; url: string; body: unknown }> = [];
    vi.stubGlobal('XMLHttpRequest', fakeXhr(xhrs, 200));
    expect((await fetchTransport.request(req)).status).toBe(200);
    expect(xhrs).toHaveLength(1);
  });
});
