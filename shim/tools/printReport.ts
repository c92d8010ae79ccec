/**
 * How the integrator tools print (issue #17): one console group per check, a line per finding with what to do
 * under it, printed whether or not the agent's logging is on (the integrator asked); and the log history as a
 * table (analytics §9 showLogHistory).
 */
import type { ToolReport } from '../../shared/validation/finding';
import type { LogEntry } from '../createLogger';

const MARK = { error: '✖', warn: '▲', info: '·', ok: '✔' } as const;

export function printReport(report: ToolReport): ToolReport {
  const verdict = report.ok ? 'nothing to fix' : `${report.findings.filter((f) => f.level === 'error').length} errors, ${report.findings.filter((f) => f.level === 'warn').length} warnings`;
  console.group(`[Waymark] ${report.title}: ${verdict}`);
  for (const f of report.findings) {
    const line = f.advice ? `${MARK[f.level]} ${f.message}\n   → ${f.advice}` : `${MARK[f.level]} ${f.message}`;
    if (f.level === 'error') console.error(line);
    else if (f.level === 'warn') console.warn(line);
    else console.info(line);
  }
  console.groupEnd();
  return report;
}

/** Prints the log history even while logging is off: a table of time, level and message. */
export function printHistory(list: LogEntry[]): LogEntry[] {
  const rows = list.map((e) => ({ time: new Date(e.time).toISOString(), level: e.level, message: e.message }));
  console.info(`[Waymark] log history: ${list.length} entries, oldest first`);
  if (typeof console.table === 'function') console.table(rows);
  else for (const row of rows) console.info(`${row.time} ${row.level} ${row.message}`);
  return list;
}
