/**
 * Issue #16: the bridge's deferred init. What init carries from the browser's stores is read once the page is
 * idle (shim/startAgent.ts readStores); until then the bridge posts nothing, keeps what is captured in order,
 * and sends init first whenever something cannot wait.
 */
import { describe, expect, it } from 'vitest';
import { PUSH_MESSAGE } from '../../shared/constants';
import type { WorkerInit } from '../../shared/protocol';
import { createBridge } from '../../shim/createBridge';
import type { Ticker } from '../../shim/createTicker';

const baseInit = (): WorkerInit => ({
  apiKey: 'k',
  dataHost: 'http://127.0.0.1:9',
  contentHost: 'http://127.0.0.1:9',
  agentVersion: 'test',
  identity: { visitorId: 'v-1', accountId: '' },
  session: {} as WorkerInit['session'],
  metadata: { visitor: {}, account: {}, parentAccount: {} },
  utm: {},
  device: 'desktop',
});

/** An endpoint that records what is posted: Comlink APPLYs by method name, pushes as 'push:<types>'. */
function recordingEndpoint() {
  const posted: string[] = [];
  const inits: WorkerInit[] = [];
  const endpoint = {
    postMessage(message: { type?: string; path?: string[]; events?: Array<{ type: string }>; argumentList?: Array<{ value: unknown }> }) {
      if (message.type === PUSH_MESSAGE) posted.push(`push:${message.events!.map((e) => e.type).join(',')}`);
      else {
        posted.push(message.path![0]!);
        if (message.path![0] === 'init') inits.push(message.argumentList![0]!.value as WorkerInit);
      }
    },
    addEventListener() {},
    removeEventListener() {},
  };
  return { endpoint, posted, inits };
}

/** The agent's tick, never run here: these tests send by start, flush and verdicts. */
const NO_TICKS: Ticker = { every: () => () => undefined };

function deferred() {
  const { endpoint, posted, inits } = recordingEndpoint();
  const init = baseInit();
  let prepared = 0;
  const bridge = createBridge(endpoint, init, () => undefined, NO_TICKS, {}, {
    prepare() {
      prepared++;
      // What readStores does: completes init in place.
      Object.assign(init.session, { sessionId: 'S1', tabId: 'T1', frameId: 'F1', parentTabId: '' });
      init.utm = { channel: 'Email' };
    },
  });
  return { bridge, posted, inits, prepared: () => prepared };
}

describe('issue #16 the bridge sends init once the stores were read', () => {
  it('posts nothing before start; then init (completed by prepare) and the events captured meanwhile, in order', async () => {
    const { bridge, posted, inits, prepared } = deferred();
    bridge.capture({ type: 'identify', time: 1, url: 'u', props: {} });
    bridge.capture({ type: 'load', time: 2, url: 'u', props: {} });
    await new Promise((r) => setTimeout(r, 80)); // past the 50 ms batch time: the batch waits for init
    expect(posted).toEqual([]);
    expect(prepared()).toBe(0);
    bridge.start();
    bridge.start(); // the second time does nothing
    expect(prepared()).toBe(1);
    expect(posted).toEqual(['init', 'push:identify,load']);
    expect(inits[0]!.session).toEqual({ sessionId: 'S1', tabId: 'T1', frameId: 'F1', parentTabId: '' });
    expect(inits[0]!.utm).toEqual({ channel: 'Email' });
    // The page-hide beacon's events carry the session init was completed with.
    expect(bridge.held().map((h) => h.session.sessionId)).toEqual(['S1', 'S1']);
  });

  it('a call waits for start, then goes after the events captured before it', async () => {
    const { bridge, posted } = deferred();
    bridge.capture({ type: 'load', time: 1, url: 'u', props: {} });
    const answered = bridge.call(async (api) => void api.loadGuides('https://host.example/'));
    await Promise.resolve();
    expect(posted).toEqual([]);
    bridge.start();
    await answered;
    expect(posted).toEqual(['init', 'push:load', 'loadGuides']);
  });

  it('what cannot wait starts it first: an identity change, a session change, a flush (page hide), teardown', () => {
    for (const act of [
      (b: ReturnType<typeof deferred>['bridge']) => b.setIdentity({ visitorId: 'v-2', accountId: '' }),
      (b: ReturnType<typeof deferred>['bridge']) => b.setSession({ sessionId: 'S2', tabId: 'T1', frameId: 'F1', parentTabId: '' }),
      (b: ReturnType<typeof deferred>['bridge']) => b.flushCaptured(),
      (b: ReturnType<typeof deferred>['bridge']) => b.terminate(),
    ]) {
      const { bridge, posted, prepared } = deferred();
      bridge.capture({ type: 'click', time: 1, url: 'u', props: {} });
      act(bridge);
      expect(prepared()).toBe(1);
      // init first, then the events captured under the old identity or session, then the change itself.
      expect(posted.slice(0, 2)).toEqual(['init', 'push:click']);
    }
  });

  it('without deferInit, init goes at once (as the contract test uses it)', () => {
    const { endpoint, posted } = recordingEndpoint();
    createBridge(endpoint, { ...baseInit(), session: { sessionId: 'S', tabId: 'T', frameId: 'F', parentTabId: '' } }, () => undefined, NO_TICKS);
    expect(posted).toEqual(['init']);
  });
});
