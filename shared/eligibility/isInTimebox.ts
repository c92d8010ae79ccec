/**
 * spec: guides §4 Transitions "Timebox". Pure: the clock is the `now` argument.
 */
import type { Guide } from '../guides/guides';

/**
 * spec: guides §4 Timebox — "a guide is outside its timebox when past expiresAfter or before showsAfter".
 * Inside means `showsAfter <= now <= expiresAfter`: at either bound exactly the guide is still inside.
 * A bound that is absent or not numeric is ignored (an epoch-ms number, or a string of one, counts).
 */
export function isInTimebox(guide: Pick<Guide, 'showsAfter' | 'expiresAfter'>, now: number): boolean {
  const showsAfter = epochMsOf(guide.showsAfter);
  const expiresAfter = epochMsOf(guide.expiresAfter);
  if (expiresAfter !== null && now > expiresAfter) return false;
  if (showsAfter !== null && now < showsAfter) return false;
  return true;
}

/**
 * A bound as epoch ms, or `null` when it is not a number (JSON may carry it as a numeric string): how the agent
 * reads showsAfter and expiresAfter, so the server's check and the console read them alike.
 */
export function epochMsOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}
