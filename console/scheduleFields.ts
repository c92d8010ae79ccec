/**
 * A guide's schedule (guides §4 Timebox: `showsAfter`, `expiresAfter`, epoch ms) as the console's date-and-time
 * inputs hold it: the browser's local time, `YYYY-MM-DDTHH:mm`, '' for none. And the schedule in words. Bounds
 * are read as the agent reads them (epochMsOf).
 */
import { epochMsOf } from '../shared/eligibility/isInTimebox';
import { formatTime } from './format';

/** `ms` as a datetime-local input's value in this browser's time zone; '' for none. */
export function toLocalInput(ms: unknown): string {
  const n = epochMsOf(ms);
  // formatTime's 'YYYY-MM-DD HH:mm:ss' (local) to the minute, as the input writes it.
  return n === null ? '' : formatTime(n).slice(0, 16).replace(' ', 'T');
}

/** A datetime-local input's value as epoch ms, or undefined for none (or a value the input cannot hold). */
export function fromLocalInput(value: string): number | undefined {
  if (!value.trim()) return undefined;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** Where `now` is in the schedule: before it, inside it, after it, or there is none. */
export function scheduleState(showsAfter: unknown, expiresAfter: unknown, now: number): 'none' | 'upcoming' | 'running' | 'ended' {
  const from = epochMsOf(showsAfter);
  const until = epochMsOf(expiresAfter);
  if (from === null && until === null) return 'none';
  if (until !== null && now > until) return 'ended';
  if (from !== null && now < from) return 'upcoming';
  return 'running';
}

/** The schedule in words for a guide's page ('' when it has none): when it shows from and until, and where now is. */
export function scheduleInWords(showsAfter: unknown, expiresAfter: unknown, now: number, format: (ms: number) => string): string {
  const state = scheduleState(showsAfter, expiresAfter, now);
  if (state === 'none') return '';
  const from = epochMsOf(showsAfter);
  const until = epochMsOf(expiresAfter);
  const span = [from !== null ? `from ${format(from)}` : '', until !== null ? `until ${format(until)}` : ''].filter(Boolean).join(' ');
  const where = { upcoming: 'not started yet', running: 'showing now', ended: 'ended: visitors no longer see it' }[state];
  return `scheduled ${span} (${where})`;
}
