/**
 * The agent's logger: one place for console output and the log history. The worker's messages arrive
 * here too (ShimCallbacks.log), so a host sees one stream. The history always records; the console only
 * while logging is enabled (spec: analytics §9), a switch kept in local storage so it survives reloads.
 */
import { isLoggingOnByDefault, LOG_HISTORY_LIMIT, truncateLogMessage } from '../shared/logRules';
import type { LogLevel } from '../shared/protocol';
import { readJson, writeJson } from './pageStorage';
import { whenIdle } from './whenIdle';

/** One line of the log history. */
export interface LogEntry {
  level: LogLevel;
  /** The message, cut to its last 1000 characters (spec: analytics §9). */
  message: string;
  /** Epoch ms when it was logged. */
  time: number;
}

/** Configuration of {@link createLogger}. */
export interface LoggerOptions {
  /** Written before every console line. @default '[Waymark]' */
  prefix?: string;
  /** The host's environment name; production-like names start with logging off (analytics §9). @default none */
  environment?: string;
  /**
   * Console logging at start, when no switch is stored in this browser (a stored switch wins: it is what a
   * developer chose with enableLogging/disableLogging). @default isLoggingOnByDefault(environment)
   */
  enabled?: boolean;
}

/** The logger. Its methods do not use `this`, so they may be passed around detached (`const log = logger.log`). */
export interface Logger {
  /** Records a line in the history and, while enabled, writes it to the console (debug lines: history only). */
  log(level: LogLevel, message: string): void;
  /** The last 100 entries, oldest first (a copy). */
  history(): LogEntry[];
  /** Turns console output on and stores the switch for later page loads. */
  enable(): void;
  /** Turns console output off and stores the switch for later page loads. */
  disable(): void;
  isEnabled(): boolean;
  /**
   * The environment once known (initialize comes after the logger is made): re-applies the default of
   * analytics §9 unless a stored switch, the `enabled` option or enable/disable already decided.
   */
  setEnvironment(environment?: string): void;
}

/**
 * Local-storage key of the logging switch, `'true'` or `'false'` (spec: analytics §7 lists "log-enabled"
 * among the browser storage keys). Prefixed like the agent's other keys (`_wm_visitorId.*`, `_wm_tabId`):
 * the host page shares this storage and may well use a bare `log-enabled` for its own logger.
 */
export const LOG_ENABLED_STORAGE_KEY = '_wm_log-enabled';

/**
 * Creates a logger. The stored switch is read once the page is idle (issue #16: a local-storage read during the
 * host's load is its first touch, a synchronous IPC, shim/whenIdle.ts), or at once when the switch is asked or
 * set, or a warning or error is logged. Lines logged before then are printed then, if the switch says so; the
 * history has them at once.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const prefix = options.prefix ?? '[Waymark]';
  const entries: LogEntry[] = [];
  let enabled = options.enabled ?? isLoggingOnByDefault(options.environment);
  /** True once something stronger than the environment default chose the switch. */
  let decided = options.enabled !== undefined;
  /** False until the stored switch was read; lines logged before then are in the history, printed then. */
  let known = false;

  const print = ({ level, message }: LogEntry) => {
    if (!enabled || level === 'debug') return;
    const write = level === 'error' ? console.error : level === 'warn' ? console.warn : console.info;
    write.call(console, `${prefix} ${message}`);
  };
  const readStored = () => {
    if (known) return;
    known = true;
    const stored = readSwitch();
    if (stored !== null) (enabled = stored), (decided = true);
    entries.forEach(print);
  };
  whenIdle(readStored);

  const setEnabled = (on: boolean) => {
    readStored();
    enabled = on;
    decided = true;
    writeSwitch(on);
  };

  const history = () => entries.slice();

  return {
    log(level, message) {
      // spec: analytics §9 — the history keeps the last 100 entries, long messages cut to their tail.
      const entry = { level, message: truncateLogMessage(String(message)), time: Date.now() };
      entries.push(entry);
      if (entries.length > LOG_HISTORY_LIMIT) entries.splice(0, entries.length - LOG_HISTORY_LIMIT);
      if (known) print(entry);
      // Warnings and errors do not wait: a page that logs them at start is misconfigured, and its developer
      // looks now. Reading the switch prints this line with the earlier ones. Info lines (an anonymous
      // visitor's, on every page) wait for idle time.
      else if (level === 'warn' || level === 'error') readStored();
    },
    history,
    enable: () => setEnabled(true),
    disable: () => setEnabled(false),
    isEnabled: () => (readStored(), enabled),
    setEnvironment(environment) {
      if (!decided) enabled = isLoggingOnByDefault(environment);
    },
  };
}

/**
 * The stored switch ('true' or 'false', which is JSON), or null when none is stored, it is something else, or
 * storage cannot be read (sandboxed frames, disabled storage: the switch then holds for this page only).
 */
function readSwitch(): boolean | null {
  const value = readJson<unknown>(LOG_ENABLED_STORAGE_KEY);
  return typeof value === 'boolean' ? value : null;
}

const writeSwitch = (on: boolean) => writeJson(LOG_ENABLED_STORAGE_KEY, on);
