/**
 * The audit trail as CSV (issue #33): RFC 4180 quoting, and a value a spreadsheet would read as a formula
 * (starting with = + - @, a tab or a carriage return) prefixed with `'` (OWASP "CSV injection").
 */
import type { AuditEntry } from './createAuditLog';

/** The header row's columns, in order. */
export const AUDIT_CSV_COLUMNS = ['id', 'at', 'actorKind', 'actorUserId', 'actorEmail', 'actorToken', 'address', 'apiKey', 'action', 'target', 'before', 'after'] as const;

/** One CSV field: quoted when it holds a comma, quote or line break; formula starts defused. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const cell = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The entries as CSV text, header row first, CRLF line ends. */
export function auditCsv(entries: AuditEntry[]): string {
  const rows = entries.map((e) =>
    [e.id, new Date(e.at).toISOString(), e.actor.kind, e.actor.userId, e.actor.email, e.actor.tokenName, e.address, e.apiKey, e.action, e.target, e.before, e.after]
      .map((v) => csvField(typeof v === 'number' ? String(v) : cell(v)))
      .join(','));
  return [AUDIT_CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}
