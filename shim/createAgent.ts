/**
 * The public API of the agent (`window.waymark`, and the npm entry). Everything here runs on the host's
 * main thread, so it does only what needs the page: read options and storage, listen to the DOM, and
 * hand the rest to the worker. No method ever throws into the host: failures are logged.
 */
import { AGENT_VERSION, TEARDOWN_FLUSH_MS } from '../shared/constants';
import type { PrivacyModule, PagePrivacy } from './privacy';
import { jsonSafe } from './jsonSafe';
import { metadataOf } from './metadata';
import { MESSAGES } from '../shared/messages';
import { createLogger } from './createLogger';
import { clearIdentity, resolveIdentify } from '../shared/identity/identityRules';
import { secureRandom, visitorStore } from './loadIdentity';
import type { AgentEnvironment, InitializeOptions, WaymarkApi } from './agentOptions';
import type { Running } from './agentState';
import { createGuideApi } from './createGuideApi';
import { createCapture } from './createCapture';
import { createChunkLoader } from './loadChunk';
import { startAgent } from './startAgent';
import { checkInitializeOptions, needsPrivacy } from './checkInitializeOptions';
import { TOOL_NAMES, type ToolName, type ToolsModule } from './tools/toolsApi';

export function createAgent(env: AgentEnvironment): WaymarkApi {
  const logger = createLogger();
  const log = logger.log;
  let state: 'idle' | 'waiting' | 'running' = 'idle';
  let running: Running | null = null;
  /** analytics §1 lock. */
  let sending = true;
  /** Calls off an initialize still waiting for the page's load event (teardown). */
  let cancelWaiting: (() => void) | null = null;
  /** The visitor's segment flags as the collector last answered (analytics §7). */
  let segmentFlags: string[] = [];
  /** What initialize was last given, for validateInstall (even when it refused it). */
  let givenOptions: InitializeOptions | undefined;
  /** Commands given before the agent runs, replayed in order once it does (guides §1). */
  const pending: Array<(r: Running) => void> = [];


  const guideApi = createGuideApi({ log, guard, whenRunning, running: () => running });
  const captured = createCapture(() => running, () => sending, log);
  const { capture, changeIdentity } = captured;
  const loadChunk = createChunkLoader(env, log);


  function whenRunning<T>(fn: (r: Running) => T, fallback: T): T {
    if (running) return fn(running);
    pending.push((r) => void fn(r));
    return fallback;
  }

  /** Starts the agent, then replays the calls made before it ran, in order (guides §1). */
  function start(options: InitializeOptions, privacy: PagePrivacy | null): void {
    const r = startAgent(options, privacy, {
      env,
      log,
      loadChunk,
      capture: captured,
      guard,
      onRunning: (next) => {
        running = next;
        next.tool = tool;
        state = 'running';
      },
      isCurrent: (candidate) => running === candidate,
      onSegmentFlags: (flags) => (segmentFlags = flags),
      // Guides are on when this is asked (the guides chunk loads only then): only setGuidesDisabled can hold them.
      guidesDisabled: guideApi.areGuidesDisabled,
    });
    for (const command of pending.splice(0)) command(r);
  }

  const api = {
    initialize(given) {
      if (state !== 'idle') {
        log('warn', MESSAGES.initializeOnce);
        return;
      }
      givenOptions = given;
      const options = checkInitializeOptions(given, log);
      if (!options) return;
      logger.setEnvironment(typeof options.environment === 'string' ? options.environment : undefined);
      state = 'waiting';
      const go = () => {
        cancelWaiting = null;
        if (state !== 'waiting') return;
        if (!needsPrivacy(options)) return guard(() => start(options, null));
        // URL transforms, a privacy filter or a custom URL source: their code is a chunk of its own, so
        // hosts without them never load it. The agent starts once it is here: no event ever leaves the
        // page without the filters.
        void loadChunk<PrivacyModule, void>(
          'privacy',
          (m) => guard(() => state === 'waiting' && start(options, m.createPagePrivacy(options, log))),
          '; Waymark will not send events without it',
        );
      };
      // guides §1: initialize only once the page is complete, unless initializeImmediately.
      if (options.initializeImmediately || document.readyState === 'complete') go();
      else {
        addEventListener('load', go, { once: true });
        cancelWaiting = () => removeEventListener('load', go);
      }
    },

    async teardown() {
      // Not started yet: the start is called off. Started: what the page holds goes to the worker, the
      // worker sends (or keeps in IndexedDB for the next page) within TEARDOWN_FLUSH_MS, then everything the
      // agent put into the page goes: listeners, hooks, timers, overlays, the worker.
      cancelWaiting?.();
      cancelWaiting = null;
      pending.length = 0;
      const r = running;
      state = 'idle';
      running = null;
      if (!r) return;
      r.bridge.flushCaptured();
      for (const undo of r.uninstall.splice(0)) guard(undo);
      r.guides?.stop();
      void r.guidesReady.then((g) => g?.stop());
      await Promise.race([r.bridge.call((w) => w.flush()).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, TEARDOWN_FLUSH_MS))]);
      r.bridge.terminate();
    },

    identify(visitor, accountId) {
      guard(() =>
        whenRunning((r) => {
          const requested = typeof visitor === 'object' && visitor !== null
            ? { visitorId: visitor.visitor?.id, accountId: visitor.account?.id, parentAccountId: visitor.parentAccount?.id }
            : { visitorId: visitor, accountId };
          // analytics §4, §5: invalid ids are ignored and logged, an invalid account clears the account.
          const decision = resolveIdentify(r.identity, requested, secureRandom);
          for (const line of decision.logs) log('warn', line);
          // analytics §3: fields given with the ids (a sign-in's user record) are the visitor's metadata from now on.
          const fields = typeof visitor === 'object' && visitor !== null ? metadataOf(visitor) : null;
          const metadata = fields && JSON.stringify(fields) !== JSON.stringify(r.init.metadata) ? fields : undefined;
          if (decision.changed || metadata) changeIdentity(r, { visitorId: decision.visitorId, accountId: decision.accountId }, false, metadata);
        }, undefined),
      );
    },

    clearSession() {
      guard(() =>
        whenRunning((r) => {
          const fresh = clearIdentity(secureRandom);
          visitorStore(r.options.apiKey, r.options).write(fresh.visitorId);
          changeIdentity(r, fresh);
        }, undefined),
      );
    },

    track(name, properties, type) {
      guard(() => {
        // spec: analytics §5 — a non-empty string name, and a type string where one is given.
        if (typeof name !== 'string' || !name.trim()) {
          log('error', MESSAGES.invalidTrackName);
          return;
        }
        if (type !== undefined && (typeof type !== 'string' || !type.trim())) {
          log('error', MESSAGES.invalidTrackType);
          return;
        }
        // Plain data (functions dropped, cycles cut): one unclonable value lost its whole batch before.
        const props = properties && typeof properties === 'object' ? { ...jsonSafe(properties) } : {};
        whenRunning(() => capture({ type: 'track', trackEventName: name, trackEventType: type, props }), undefined);
      });
    },

    getVisitorId: () => running?.identity.visitorId ?? null,
    getAccountId: () => running?.identity.accountId || null,

    flushNow() {
      return new Promise((resolve) => {
        whenRunning((r) => {
          r.bridge.call((w) => w.flush()).then(
            (outcome) => resolve(outcome.ok ? outcome.value : null),
            (err: unknown) => {
              log('error', `flushNow failed: ${String(err)}`);
              resolve(null);
            },
          );
        }, undefined);
      });
    },

    ...guideApi,

    stopSendingEvents() {
      sending = false;
      whenRunning((r) => void r.bridge.call((w) => w.setSending(false)), undefined);
    },
    startSendingEvents() {
      sending = true;
      whenRunning((r) => void r.bridge.call((w) => w.setSending(true)), undefined);
    },
    isSendingEvents: () => sending,
    getSegmentFlags: () => segmentFlags.slice(),

    isReady: () => state === 'running',
    getVersion: () => AGENT_VERSION,
    getWorkerMode: () => running?.workerMode ?? null,
    getLogHistory: () => logger.history(),
    enableLogging: () => logger.enable(),
    disableLogging: () => logger.disable(),
    showLogHistory() {
      void tool('showLogHistory')();
      return logger.history();
    },
  } as WaymarkApi;
  // The integrator tools (issue #17): one stub each, the tools chunk on the first call.
  for (const name of TOOL_NAMES) (api as unknown as Record<string, unknown>)[name] = tool(name);

  /** A call of the tools chunk (waymark.tools.js, shim/tools/): imported on the first, null when it cannot load. */
  function tool(name: ToolName) {
    return (...args: unknown[]) =>
      loadChunk<ToolsModule, Promise<unknown>>('tools', (m) => m.runTool(name, { env, logger, running: () => running, given: () => givenOptions, agent: api }, args)).then((result) => result ?? null);
  }

  /** Runs an API body so that nothing it throws reaches the host page. */
  function guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      const e = err as Error;
      const message = `internal error: ${e?.message ?? String(err)}`;
      log('error', message);
      // analytics §8: internal errors go to the error log, de-duplicated by the worker's reporter.
      void running?.bridge.call((w) => w.reportError({ message, stack: e?.stack, critical: true }));
    }
  }

  return api;
}
