import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { printHistory } from '../../shim/tools/printReport';
import {
  hashError,
  isLoggingOnByDefault,
  LOG_HISTORY_LIMIT,
  LOG_MESSAGE_LIMIT,
  PRODUCTION_ENVIRONMENTS,
  truncateLogMessage,
} from '../../shared/logRules';
import { createLogger, LOG_ENABLED_STORAGE_KEY } from '../../shim/createLogger';
import { createErrorReporter, ERROR_REPORT_TIMEOUT_MS, type ErrorReporterOptions } from '../../worker/createErrorReporter';
import type { Transport, TransportRequest } from '../../worker/ports';
import { createFakeClock, createFakeTransport, queryOf } from './fakes';

/** FNV-1a 32 written independently over Node's own UTF-8 encoder (STYLE §6: check against a reference). */
function referenceFnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) {
    h ^= b;
    h = Number((BigInt(h) * 0x01000193n) & 0xffffffffn);
  }
  return h.toString(16).padStart(8, '0');
}

describe('analytics §9 log rules', () => {
  it('keeps messages up to 1000 characters and cuts longer ones to their last 1000', () => {
    expect(LOG_MESSAGE_LIMIT).toBe(1000);
    const exact = 'x'.repeat(1000);
    expect(truncateLogMessage(exact)).toBe(exact);
    const long = 'HEAD' + 'a'.repeat(996) + 'TAIL:42';
    const cut = truncateLogMessage(long);
    expect(cut).toHaveLength(1000);
    expect(cut.endsWith('TAIL:42')).toBe(true);
    expect(cut).toBe(long.slice(-1000));
    expect(truncateLogMessage('short')).toBe('short');
  });

  it('never starts the tail on half a surrogate pair', () => {
    const long = '😀'.repeat(600); // 1200 code units
    const cut = truncateLogMessage(long);
    expect(cut).toHaveLength(1000);
    expect(() => encodeURIComponent(cut)).not.toThrow();
    const odd = '😀'.repeat(600) + 'a'; // the cut falls inside a pair
    const cutOdd = truncateLogMessage(odd);
    expect(cutOdd).toHaveLength(999);
    expect(() => encodeURIComponent(cutOdd)).not.toThrow();
  });

  it('logs by default except in the production-like environments', () => {
    expect([...PRODUCTION_ENVIRONMENTS]).toEqual(['prod', 'prod-eu', 'prod-us1', 'prod-jp', 'prod-hsbc', 'prod-au', 'prod-gov', 'rc']);
    for (const env of PRODUCTION_ENVIRONMENTS) expect(isLoggingOnByDefault(env)).toBe(false);
    expect(isLoggingOnByDefault(' PROD ')).toBe(false);
    expect(isLoggingOnByDefault()).toBe(true);
    for (const env of ['dev', 'staging', 'test', 'prod-xx', 'production', '']) expect(isLoggingOnByDefault(env)).toBe(true);
  });

  it('hashes with FNV-1a 32: the published vectors, stable, and equal to a reference over UTF-8 bytes', () => {
    expect(hashError('')).toBe('811c9dc5');
    expect(hashError('a')).toBe('e40c292c');
    expect(hashError('foobar')).toBe('bf9cf968');
    expect(hashError('TypeError: x is undefined')).toBe(hashError('TypeError: x is undefined'));
    expect(hashError('error A')).not.toBe(hashError('error B'));
    for (const s of ['é', '€ 10', '😀 smile', 'mixed ascii ü 中文 𝄞', 'lone \uD800 high', 'lone \uDC00 low', 'x'.repeat(5000)]) {
      expect(hashError(s)).toMatch(/^[0-9a-f]{8}$/);
      expect(hashError(s)).toBe(referenceFnv1a(s));
    }
  });
});

/** A tiny in-memory localStorage. */
function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => (data.has(k) ? (data.get(k) as string) : null),
    setItem: (k: string, v: string) => void data.set(k, String(v)),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('analytics §9 logger', () => {
  let info: ReturnType<typeof vi.spyOn>;
  let warn: ReturnType<typeof vi.spyOn>;
  let error: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('keeps the last 100 entries with messages cut to their tail', () => {
    vi.stubGlobal('localStorage', memoryStorage());
    const logger = createLogger({ enabled: false });
    for (let i = 0; i < 150; i++) logger.log('info', `message ${i}`);
    logger.log('warn', 'y'.repeat(1500) + 'END');
    const history = logger.history();
    expect(LOG_HISTORY_LIMIT).toBe(100);
    expect(history).toHaveLength(100);
    expect(history[0].message).toBe('message 51');
    expect(history[98].message).toBe('message 149');
    expect(history[99]).toMatchObject({ level: 'warn' });
    expect(history[99].message).toHaveLength(1000);
    expect(history[99].message.endsWith('END')).toBe(true);
    // A copy: changing it does not change the logger.
    history.length = 0;
    expect(logger.history()).toHaveLength(100);
  });

  it('writes to the console while enabled; debug lines go to the history only', () => {
    vi.stubGlobal('localStorage', memoryStorage());
    const logger = createLogger({ prefix: '[T]' });
    expect(logger.isEnabled()).toBe(true);
    const log = logger.log; // createAgent detaches it
    log('info', 'hello');
    log('warn', 'careful');
    log('error', 'broken');
    log('debug', 'detail');
    expect(info).toHaveBeenCalledWith('[T] hello');
    expect(warn).toHaveBeenCalledWith('[T] careful');
    expect(error).toHaveBeenCalledWith('[T] broken');
    expect(info).toHaveBeenCalledTimes(1);
    expect(logger.history().map((e) => e.level)).toEqual(['info', 'warn', 'error', 'debug']);
  });

  it('records the history but prints nothing while disabled', () => {
    vi.stubGlobal('localStorage', memoryStorage());
    const logger = createLogger();
    logger.disable();
    expect(logger.isEnabled()).toBe(false);
    logger.log('error', 'quiet failure');
    logger.log('info', 'quiet info');
    expect(error).not.toHaveBeenCalled();
    expect(info).not.toHaveBeenCalled();
    expect(logger.history().map((e) => e.message)).toEqual(['quiet failure', 'quiet info']);
  });

  it('starts off in a production-like environment and on elsewhere', () => {
    vi.stubGlobal('localStorage', memoryStorage());
    expect(createLogger({ environment: 'prod-eu' }).isEnabled()).toBe(false);
    expect(createLogger({ environment: 'rc' }).isEnabled()).toBe(false);
    expect(createLogger({ environment: 'staging' }).isEnabled()).toBe(true);
    expect(createLogger({ environment: 'prod', enabled: true }).isEnabled()).toBe(true);
    const prod = createLogger({ environment: 'prod' });
    prod.log('error', 'not shown');
    expect(error).not.toHaveBeenCalled();
    expect(prod.history()).toHaveLength(1);
  });

  it('applies the environment given later unless the switch was already decided', () => {
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    const late = createLogger();
    expect(late.isEnabled()).toBe(true);
    late.setEnvironment('prod-gov');
    expect(late.isEnabled()).toBe(false);
    late.setEnvironment('dev');
    expect(late.isEnabled()).toBe(true);
    const forced = createLogger({ enabled: true });
    forced.setEnvironment('prod');
    expect(forced.isEnabled()).toBe(true);
    const chosen = createLogger();
    chosen.enable();
    chosen.setEnvironment('prod');
    expect(chosen.isEnabled()).toBe(true);
    storage.data.clear();
    storage.data.set(LOG_ENABLED_STORAGE_KEY, 'true');
    const reloaded = createLogger();
    reloaded.setEnvironment('prod');
    expect(reloaded.isEnabled()).toBe(true);
  });

  it('persists the switch under log-enabled so it survives a reload, and the stored switch wins', () => {
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    expect(LOG_ENABLED_STORAGE_KEY).toContain('log-enabled');
    createLogger({ environment: 'prod' }).enable();
    expect(storage.data.get(LOG_ENABLED_STORAGE_KEY)).toBe('true');
    // The next page load, still in prod: the developer's choice holds.
    const reloaded = createLogger({ environment: 'prod' });
    expect(reloaded.isEnabled()).toBe(true);
    reloaded.disable();
    expect(storage.data.get(LOG_ENABLED_STORAGE_KEY)).toBe('false');
    expect(createLogger({ environment: 'dev', enabled: true }).isEnabled()).toBe(false);
    // A value the logger did not write is ignored.
    storage.data.set(LOG_ENABLED_STORAGE_KEY, 'yes');
    expect(createLogger({ environment: 'prod' }).isEnabled()).toBe(false);
  });

  it('issue #16: reads its stored switch off the start, once idle (or when asked); earlier lines print then, per the switch', () => {
    vi.useFakeTimers();
    try {
      const storage = memoryStorage({ [LOG_ENABLED_STORAGE_KEY]: 'true' });
      const getItem = vi.spyOn(storage, 'getItem');
      vi.stubGlobal('localStorage', storage);
      // Production: off by default, but the developer's stored switch says on.
      const logger = createLogger({ prefix: '[T]', environment: 'prod' });
      logger.log('info', 'during the start');
      expect(getItem).not.toHaveBeenCalled();
      expect(info).not.toHaveBeenCalled();
      expect(logger.history().map((e) => e.message)).toEqual(['during the start']);
      vi.advanceTimersByTime(1000); // Node has no requestIdleCallback: the timer stands in for idle time
      expect(getItem).toHaveBeenCalledTimes(1);
      expect(info).toHaveBeenCalledWith('[T] during the start');
      logger.log('info', 'later');
      expect(info).toHaveBeenCalledWith('[T] later');

      // A stored off holds back what was logged before it was read, though the default was on.
      storage.data.set(LOG_ENABLED_STORAGE_KEY, 'false');
      const quiet = createLogger({ prefix: '[T]' });
      quiet.log('info', 'held back');
      vi.advanceTimersByTime(1000);
      expect(info).not.toHaveBeenCalledWith('[T] held back');
      // A warning does not wait: the switch is read at once (here: on), and it prints with what came before.
      storage.data.set(LOG_ENABLED_STORAGE_KEY, 'true');
      const misconfigured = createLogger({ prefix: '[T]', environment: 'prod' });
      misconfigured.log('info', 'first');
      misconfigured.log('warn', 'a bad option');
      expect(info).toHaveBeenCalledWith('[T] first');
      expect(warn).toHaveBeenCalledWith('[T] a bad option');
      // Asked before idle time: read at once.
      const asked = createLogger({ environment: 'prod' });
      expect(asked.isEnabled()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('works when storage throws or does not exist', () => {
    const throwing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
    };
    vi.stubGlobal('localStorage', throwing);
    const logger = createLogger({ environment: 'prod' });
    expect(logger.isEnabled()).toBe(false);
    expect(() => logger.enable()).not.toThrow();
    expect(logger.isEnabled()).toBe(true);
    vi.unstubAllGlobals();
    // Node 20 has no localStorage at all: reading it is a ReferenceError, caught.
    expect(createLogger().isEnabled()).toBe(true);
  });

  it('showLogHistory prints the history (the tools chunk) even while logging is off, and returns it', () => {
    vi.stubGlobal('localStorage', memoryStorage());
    const table = vi.spyOn(console, 'table').mockImplementation(() => undefined);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const logger = createLogger({ enabled: false });
    logger.log('warn', 'first');
    logger.log('info', 'second');
    const shown = printHistory(logger.history());
    expect(shown.map((e) => e.message)).toEqual(['first', 'second']);
    expect(info).toHaveBeenCalledWith('[Waymark] log history: 2 entries, oldest first');
    expect(table).toHaveBeenCalledTimes(1);
    const rows = table.mock.calls[0][0] as Array<{ level: string; message: string; time: string }>;
    expect(rows.map((r) => [r.level, r.message])).toEqual([['warn', 'first'], ['info', 'second']]);
    expect(rows[0].time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe('analytics §7 §8 error reporter', () => {
  const stack = 'TypeError: boom\n    at explode (https://cdn.example/waymark.worker.js:1:200)\n    at run (https://cdn.example/waymark.worker.js:1:300)';

  function setup(overrides: Partial<ErrorReporterOptions> = {}, transport: Transport = createFakeTransport()) {
    const clock = createFakeClock();
    const logs: Array<[string, string]> = [];
    const reporter = createErrorReporter({
      apiKey: 'key/1',
      dataHost: 'https://data.example',
      agentVersion: '0.1.0',
      getVisitorId: () => 'visitor-9',
      includeStack: true,
      ports: { transport, clock },
      log: (level, message) => logs.push([level, message]),
      ...overrides,
    });
    return { reporter, clock, logs };
  }

  it('POSTs the first occurrence to /data/errorlog?apiKey= with {error, version, visitorId}', async () => {
    const transport = createFakeTransport();
    const { reporter } = setup({}, transport);
    await reporter.report({ message: 'boom' });
    expect(transport.requests).toEqual([
      {
        method: 'POST',
        url: 'https://data.example/data/errorlog?apiKey=key%2F1',
        body: JSON.stringify({ error: 'boom', version: '0.1.0', visitorId: 'visitor-9' }),
        contentType: 'application/json',
      },
    ]);
  });

  it('de-duplicates by hash of message and first stack frame, and counts every occurrence', async () => {
    const transport = createFakeTransport();
    const { reporter } = setup({}, transport);
    const elsewhere = stack.replace('explode', 'other').replace(':1:200', ':9:9');
    await Promise.all([reporter.report({ message: 'boom', stack }), reporter.report({ message: 'boom', stack })]);
    await reporter.report({ message: 'boom', stack });
    await reporter.report({ message: 'boom', stack: elsewhere });
    await reporter.report({ message: 'other' });
    expect(transport.requests).toHaveLength(3);
    const key = hashError('boom\nat explode (https://cdn.example/waymark.worker.js:1:200)');
    expect(reporter.counts()).toEqual({
      [key]: 3,
      [hashError('boom\nat other (https://cdn.example/waymark.worker.js:9:9)')]: 1,
      [hashError('other\n')]: 1,
    });
  });

  it('sends the stack only for critical errors, and only when stacks are included', async () => {
    const withStacks = createFakeTransport();
    const a = setup({}, withStacks).reporter;
    await a.report({ message: 'plain', stack });
    await a.report({ message: 'critical', stack, critical: true });
    expect(withStacks.requests.map((r) => JSON.parse(r.body as string).error)).toEqual(['plain', `critical\n${stack}`]);

    const without = createFakeTransport();
    const b = setup({ includeStack: false }, without).reporter;
    await b.report({ message: 'critical', stack, critical: true });
    expect(JSON.parse(without.requests[0].body as string).error).toBe('critical');
  });

  it('falls back to the log beacon on a 500, with the message url-encoded', async () => {
    const transport = createFakeTransport();
    transport.statuses.push(500);
    const { reporter } = setup({}, transport);
    await reporter.report({ message: 'bad & worse = 100% ✓' });
    expect(transport.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    const beacon = transport.requests[1].url;
    expect(beacon.startsWith('https://data.example/data/log.gif/key%2F1?msg=')).toBe(true);
    expect(beacon).toContain('msg=bad%20%26%20worse%20%3D%20100%25%20%E2%9C%93&version=0.1.0');
    expect(queryOf(beacon).get('msg')).toBe('bad & worse = 100% ✓');
  });

  it('falls back to the log beacon on a network error, with the message cut to its tail', async () => {
    const inner = createFakeTransport();
    const transport: Transport = {
      request(req: TransportRequest) {
        if (req.method === 'POST') {
          inner.requests.push(req);
          return Promise.reject(new TypeError('Failed to fetch'));
        }
        return inner.request(req);
      },
    };
    const { reporter } = setup({}, transport);
    const long = 'S'.repeat(2000) + ' at the end';
    await expect(reporter.report({ message: long, stack, critical: true })).resolves.toBeUndefined();
    expect(inner.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    const msg = queryOf(inner.requests[1].url).get('msg') as string;
    expect(msg).toHaveLength(1000);
    expect(msg.endsWith('waymark.worker.js:1:300)')).toBe(true);
    expect(queryOf(inner.requests[1].url).get('version')).toBe('0.1.0');
  });

  it('makes one attempt each: a failed beacon is noted at debug level, not retried, and nothing throws', async () => {
    const transport = createFakeTransport();
    transport.statuses.push(503, 503);
    const { reporter, clock, logs } = setup({ getVisitorId: () => { throw new Error('no identity'); } }, transport);
    await reporter.report({ message: 'down' });
    await clock.advance(600_000);
    expect(transport.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    expect(JSON.parse(transport.requests[0].body as string).visitorId).toBe('');
    expect(logs).toEqual([['debug', 'a log beacon was not delivered']]);
    expect(clock.pendingTimers()).toEqual([]);
  });

  it('gives up on a request that never answers after the timeout and falls back', async () => {
    const requests: TransportRequest[] = [];
    const hanging: Transport = {
      request(req) {
        requests.push(req);
        return new Promise(() => undefined);
      },
    };
    const { reporter, clock } = setup({}, hanging);
    let settled = false;
    const done = reporter.report({ message: 'stuck' }).then(() => (settled = true));
    await clock.advance(ERROR_REPORT_TIMEOUT_MS - 1);
    expect(requests.map((r) => r.method)).toEqual(['POST']);
    await clock.advance(1);
    expect(requests.map((r) => r.method)).toEqual(['POST', 'GET']);
    await clock.advance(ERROR_REPORT_TIMEOUT_MS);
    await done;
    expect(settled).toBe(true);
  });

  it('logBeacon sends a plain log line, and survives a lone surrogate', async () => {
    const transport = createFakeTransport();
    const { reporter } = setup({}, transport);
    await reporter.logBeacon('guides loaded: 3');
    await reporter.logBeacon('broken \uD800 text');
    expect(transport.requests[0]).toEqual({
      method: 'GET',
      url: 'https://data.example/data/log.gif/key%2F1?msg=guides%20loaded%3A%203&version=0.1.0',
    });
    expect(queryOf(transport.requests[1].url).get('msg')).toBe('broken \uFFFD text');
  });
});
