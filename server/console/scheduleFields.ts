/**
 * A guide's schedule (guides §4 Timebox: `showsAfter`, `expiresAfter`, epoch ms) as the console's date-and-time
 * inputs hold it: the browser's local time, `YYYY-MM-DDTHH:mm`, '' for none. And the schedule in words.
 */

/** `ms` as a datetime-local input's value in this browser's time zone; '' for none. */
export function toLocalInput(ms: unknown): string {
  const n = typeof ms === 'number' ? ms : typeof ms === 'string' && ms.trim() !== '' ? Number(ms) : NaN;
  if (!Number.isFinite(n)) return '';
  const d = new Date(n);
  const pad = (v: number) => String(v).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local input's value as epoch ms, or undefined for none (or a value the input cannot hold). */
export function fromLocalInput(value: string): number | undefined {
  if (!value.trim()) return undefined;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** Where `now` is in the schedule: before it, inside it, after it, or there is none. */
export function scheduleState(showsAfter: unknown, expiresAfter: unknown, now: number): 'none' | 'upcoming' | 'running' | 'ended' {
  const from = toMs(showsAfter);
  const until = toMs(expiresAfter);
  if (from === undefined && until === undefined) return 'none';
  if (until !== undefined && now > until) return 'ended';
  if (from !== undefined && now < from) return 'upcoming';
  return 'running';
}

function toMs(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** The schedule in words for a guide's page ('' when it has none): when it shows from and until, and where now is. */
export function scheduleInWords(showsAfter: unknown, expiresAfter: unknown, now: number, format: (ms: number) => string): string {
  const state = scheduleState(showsAfter, expiresAfter, now);
  if (state === 'none') return '';
  const from = toMs(showsAfter);
  const until = toMs(expiresAfter);
  const span = [from !== undefined ? `from ${format(from)}` : '', until !== undefined ? `until ${format(until)}` : ''].filter(Boolean).join(' ');
  const where = { upcoming: 'not started yet', running: 'showing now', ended: 'ended: visitors no longer see it' }[state];
  return `scheduled ${span} (${where})`;
}
