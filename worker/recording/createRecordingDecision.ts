/**
 * Whether this page records (issue #18): the app's `GET /data/recording.json/{apiKey}` → `{enabled, sampleRate}`,
 * asked once per page; then one draw against `sampleRate` per session id, kept with the session (IndexedDB, so
 * every page of a session gets the same answer: a session is recorded whole or not at all). Says why not.
 */
import type { LogLevel } from '../../shared/protocol';
import type { WorkerPorts } from '../ports';
import { raceTimeout, TIMED_OUT } from '../raceTimeout';
import type { StoredDecision } from './recordingStore';

/**
 * How long the kept decision may take to read. WebKitGTK 2.50 was seen to leave IndexedDB unanswered for every
 * later page of a window once a recorded page was left within a second of its start (issue #32, docs/engines.md):
 * past this the page draws for itself, as it does without IndexedDB.
 */
export const DECISION_READ_TIMEOUT_MS = 1000;

export interface RecordingConfig {
  enabled: boolean;
  sampleRate: number;
}

export interface RecordingDecisionOptions {
  apiKey: string;
  dataHost: string;
  ports: WorkerPorts;
  log(level: LogLevel, message: string): void;
}

/**
 * Answers this session's decision: recording.json asked once (no answer, no recording), then the draw kept with
 * the session id (drawn the first time a page of the session asks). Without IndexedDB each page draws anew.
 */
export function createRecordingDecision({ apiKey, dataHost, ports, log }: RecordingDecisionOptions): (sessionId: string) => Promise<boolean> {
  let config: Promise<RecordingConfig | null> | null = null;

  async function readConfig(): Promise<RecordingConfig | null> {
    const url = `${dataHost}/data/recording.json/${encodeURIComponent(apiKey)}`;
    try {
      const response = await ports.transport.request({ method: 'GET', url });
      const body = (response.status === 200 ? JSON.parse(await response.text()) : {}) as Partial<RecordingConfig>;
      if (typeof body.enabled === 'boolean' && typeof body.sampleRate === 'number') return body as RecordingConfig;
      log('warn', `not recording: recording.json answered ${response.status}`);
    } catch (err) {
      log('warn', 'not recording: recording.json unreachable');
    }
    return null;
  }

  return async (sessionId) => {
    const app = await (config ??= readConfig());
    if (!app) return false;
    if (!app.enabled) {
      log('info', 'not recording: recording is off for this app');
      return false;
    }
    const key = `${apiKey}|s|${sessionId}`;
    const read = ports.recordings ? await raceTimeout(ports.clock, ports.recordings.get(key).catch(() => undefined), DECISION_READ_TIMEOUT_MS) : undefined;
    if (read === TIMED_OUT) log('info', 'the session\'s recording decision was not read in time (IndexedDB busy): drawn for this page');
    const kept = read === TIMED_OUT ? undefined : (read as StoredDecision | undefined);
    let record = kept?.record;
    if (typeof record !== 'boolean') {
      record = (ports.random ?? Math.random)() < app.sampleRate;
      // Not awaited: a write IndexedDB leaves unanswered must not hold the decision either.
      void ports.recordings?.put(key, { savedAt: ports.clock.now(), record }).catch(() => undefined);
    }
    if (!record) log('info', `not recording: this session was not sampled (sampleRate ${app.sampleRate})`);
    return record;
  };
}
