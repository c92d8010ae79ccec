/**
 * The meta event's `date` (wire-protocol.md: "22/11/2026"), written without Intl (issue #16: the first
 * toLocaleDateString of a page costs ~20 ms of startup): the same text as en-GB's, in local time.
 */
import { describe, expect, it } from 'vitest';
import { dayMonthYear } from '../../shim/metadata';

describe('wire-protocol meta date', () => {
  it("reads as en-GB's day/month/year with leading zeros, for any day of the year", () => {
    expect(dayMonthYear(new Date(2026, 10, 22))).toBe('22/11/2026');
    expect(dayMonthYear(new Date(2026, 0, 5))).toBe('05/01/2026');
    for (let day = 0; day < 366; day += 7) {
      const d = new Date(2024, 0, 1 + day, 23, 59);
      expect(dayMonthYear(d)).toBe(d.toLocaleDateString('en-GB'));
    }
  });
});
