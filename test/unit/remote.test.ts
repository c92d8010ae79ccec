/**
 * The shim's Comlink client (shim/createRemote.ts) against Comlink's own `expose` and `wrap`, as the worker runs
 * them (issue #16: the shim dropped Comlink's general proxy for bytes; the wire must stay Comlink's).
 */
import { expose, type Remote } from 'comlink';
import { describe, expect, it } from 'vitest';
import { byReference, createRemote } from '../../shim/createRemote';

interface Api {
  add(a: number, b: number): number;
  later(text: string): Promise<string>;
  fail(): never;
  callBack(callbacks: { said(text: string): void }): Promise<string>;
}

function connect(): { api: Record<keyof Api, (...args: unknown[]) => Promise<unknown>>; close(): void } {
  const { port1, port2 } = new MessageChannel();
  const served: Api = {
    add: (a, b) => a + b,
    later: async (text) => `later ${text}`,
    fail() {
      throw new TypeError('refused');
    },
    async callBack(callbacks) {
      // What the worker does with ShimCallbacks: calls through Comlink's proxy and awaits the answer.
      await (callbacks as unknown as Remote<{ said(text: string): void }>).said('hello');
      return 'answered';
    },
  };
  expose(served, port2);
  return { api: createRemote(port1), close: () => (port1.close(), port2.close()) };
}

describe('shim/createRemote: Comlink 4 wire protocol (issue #16)', () => {
  it('calls a method and resolves with its answer, sync or async, in order', async () => {
    const { api, close } = connect();
    await expect(Promise.all([api.add(2, 3), api.later('x'), api.add(1, 1)])).resolves.toEqual([5, 'later x', 2]);
    close();
  });

  it('rejects with the Error the served method threw (message and name)', async () => {
    const { api, close } = connect();
    const err = (await api.fail().catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('refused');
    expect(err.name).toBe('TypeError');
    close();
  });

  it('passes callbacks by reference: the other side calls them and gets an answer', async () => {
    const { api, close } = connect();
    const heard: string[] = [];
    await expect(api.callBack(byReference({ said: (text: string) => void heard.push(text) }))).resolves.toBe('answered');
    expect(heard).toEqual(['hello']);
    close();
  });

  it('a callback that throws still answers, and the error stays on this side', async () => {
    const { api, close } = connect();
    const callbacks = byReference({
      said() {
        throw new Error('host hook failed');
      },
    });
    await expect(api.callBack(callbacks)).resolves.toBe('answered');
    close();
  });
});
