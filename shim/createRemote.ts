/**
 * The shim's side of Comlink's wire protocol, written for the two things the bridge does with it: call a method
 * of the worker API and await its answer, and hand over one object of callbacks the worker calls back
 * (Comlink's `proxy`: a MessagePort whose messages are applied to it). The worker serves its API with Comlink's
 * own `expose` (worker/serveWorkerApi.ts) and calls the callbacks through Comlink's `wrap`; the messages are
 * Comlink 4's: `{ id, type: 'APPLY', path, argumentList }` out, `{ id, type: 'RAW', value }` or a
 * `'HANDLER'` `'throw'` back.
 *
 * Why not Comlink's `wrap` here (issue #16): its general proxy (get, set, construct, endpoints, release,
 * finalizers, transfer handlers both ways) was a third of the shim's bytes, and the shim's budget (12 KB gzip)
 * is what hosts pay first; the start's deferred storage reads needed the room. The contract test
 * (test/unit/contract.test.ts) runs this against the real worker API over a MessageChannel.
 */
import type { Endpoint } from 'comlink';

/** A value as Comlink puts it on the wire. */
interface WireValue {
  type: 'RAW' | 'HANDLER';
  name?: string;
  value: unknown;
}

type CallbackObject = Record<string, ((...args: never[]) => unknown) | undefined>;

/** An argument passed by reference: the worker calls its methods back (Comlink's `proxy`). */
class ByReference {
  constructor(readonly callbacks: CallbackObject) {}
}

/**
 * The remote API on `endpoint`: every property is a method that posts an APPLY and resolves with the answer (or
 * rejects with the error the worker threw). An argument made with {@link byReference} crosses as a port.
 */
export function createRemote<T>(endpoint: Endpoint): T {
  const pending = new Map<number, (data: WireValue) => void>();
  let lastId = 0;
  endpoint.addEventListener('message', (event) => {
    const data = (event as MessageEvent).data as (WireValue & { id?: unknown }) | null;
    const resolve = typeof data?.id === 'number' ? pending.get(data.id) : undefined;
    if (!resolve) return;
    pending.delete(data!.id as number);
    resolve(data!);
  });
  // A MessagePort (the contract test's, the in-page mode's) delivers nothing to listeners until started.
  (endpoint as Partial<MessagePort>).start?.();
  const call = (name: string, args: unknown[]) =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      const transfer: Transferable[] = [];
      const argumentList = args.map((arg): WireValue => {
        if (!(arg instanceof ByReference)) return { type: 'RAW', value: arg };
        const { port1, port2 } = new MessageChannel();
        serve(port1, arg.callbacks);
        transfer.push(port2);
        return { type: 'HANDLER', name: 'proxy', value: port2 };
      });
      pending.set(id, (answer) => {
        if (answer.type === 'RAW') return resolve(answer.value);
        // Comlink's 'throw' handler: an Error crosses as its fields, anything else as itself.
        const thrown = answer.value as { isError?: boolean; value?: { message?: string } } | undefined;
        reject(thrown?.isError ? Object.assign(new Error(thrown.value?.message), thrown.value) : thrown?.value);
      });
      endpoint.postMessage({ id, type: 'APPLY', path: [name], argumentList }, transfer);
    });
  return new Proxy({}, { get: (_, name) => (...args: unknown[]) => call(String(name), args) }) as T;
}

/** Passes `callbacks` by reference: the worker's calls on it run here (see {@link createRemote}). */
export const byReference = <T extends object>(callbacks: T): T => new ByReference(callbacks as unknown as CallbackObject) as unknown as T;

/**
 * Applies the worker's calls to `callbacks` and answers each (with nothing: no callback returns a value), so the
 * worker's Comlink does not keep a pending call per message. A RELEASE (the worker dropped its proxy) closes the port.
 */
function serve(port: MessagePort, callbacks: CallbackObject): void {
  port.onmessage = (event: MessageEvent<{ id?: unknown; type?: string; path?: string[]; argumentList?: WireValue[] }>) => {
    const { id, type, path = [], argumentList = [] } = event.data ?? {};
    if (id === undefined) return;
    try {
      if (type === 'APPLY') (callbacks[path[0]!] as ((...args: unknown[]) => unknown) | undefined)?.(...argumentList.map((v) => v.value));
    } catch {
      // A callback that throws (a host's log hook, say) must not become an uncaught error of the page.
    }
    port.postMessage({ id, type: 'RAW', value: undefined });
    if (type === 'RELEASE') port.close();
  };
}
