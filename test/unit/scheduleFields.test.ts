import { describe, expect, it } from 'vitest';
import { fromLocalInput, scheduleInWords, scheduleState, toLocalInput } from '../../console/scheduleFields';

describe('the console\'s guide schedule (guides §4 Timebox) in date-and-time inputs', () => {
  it('reads and writes the browser\'s local time to the minute; empty is none', () => {
    const at = new Date(2026, 11, 1, 9, 30).getTime(); // 1 Dec 2026 09:30 local
    expect(toLocalInput(at)).toBe('2026-12-01T09:30');
    expect(toLocalInput(String(at))).toBe('2026-12-01T09:30');
    expect(fromLocalInput('2026-12-01T09:30')).toBe(at);
    expect(toLocalInput(undefined)).toBe('');
    expect(toLocalInput('soon')).toBe('');
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('not a date')).toBeUndefined();
  });

  it('says where now is in the schedule, as the agent judges it (both bounds inside)', () => {
    expect(scheduleState(undefined, undefined, 5)).toBe('none');
    expect(scheduleState(10, undefined, 5)).toBe('upcoming');
    expect(scheduleState(10, 20, 10)).toBe('running');
    expect(scheduleState(10, 20, 20)).toBe('running');
    expect(scheduleState(undefined, 20, 21)).toBe('ended');
    const words = (from: unknown, until: unknown, now: number) => scheduleInWords(from, until, now, (ms) => `t${ms}`);
    expect(words(undefined, undefined, 5)).toBe('');
    expect(words(10, 20, 15)).toBe('scheduled from t10 until t20 (showing now)');
    expect(words(10, undefined, 5)).toBe('scheduled from t10 (not started yet)');
    expect(words(undefined, 20, 25)).toBe('scheduled until t20 (ended: visitors no longer see it)');
  });
});
