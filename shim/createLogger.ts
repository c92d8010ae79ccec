/**
 * The agent's logger: one place for console output and the log history. The worker's messages arrive
 * here too (ShimCallbacks.log), so a host sees one stream. Issue #3 adds the spec's history limits and the
 * enable/disable switches; this first cut already keeps a bounded history.
 */
import type { LogLevel } from '../shared/protocol';

export interface LogEntry {
  level: LogLevel;
  message: string;
  time: number;
}

export interface Logger {
  log(level: LogLevel, message: string): void;
  history(): LogEntry[];
}

const HISTORY_LIMIT = 100;

export function createLogger(prefix = '[Waymark]'): Logger {
  const entries: LogEntry[] = [];
  return {
    log(level, message) {
      entries.push({ level, message, time: Date.now() });
      if (entries.length > HISTORY_LIMIT) entries.shift();
      if (level === 'debug') return;
      const write = level === 'error' ? console.error : level === 'warn' ? console.warn : console.info;
      write.call(console, `${prefix} ${message}`);
    },
    history: () => entries.slice(),
  };
}
