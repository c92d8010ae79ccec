import { describe, expect, it } from 'vitest';
import { CHANGE_EVENT_DEBOUNCE_MS } from '../../shared/constants';
import { createChangeDebounce } from '../../shared/analytics/createChangeDebounce';

describe('analytics §9 click debounce for change events', () => {
  it('is 5000 ms', () => {
    expect(CHANGE_EVENT_DEBOUNCE_MS).toBe(5000);
  });

  it("sends an element's first change, and a repeat only after 5000 ms without one", () => {
    const isNew = createChangeDebounce();
    const box = {};
    expect(isNew(box, 10_000)).toBe(true);
    expect(isNew(box, 10_001)).toBe(false);
    expect(isNew(box, 14_999)).toBe(false);
    // Each repeat restarts the window: 19,998 is 4,999 ms after 14,999, 24,998 a full 5,000 after 19,998.
    expect(isNew(box, 19_998)).toBe(false);
    expect(isNew(box, 24_998)).toBe(true);
  });

  it('judges each element on its own', () => {
    const isNew = createChangeDebounce();
    const name = {};
    const zone = {};
    expect(isNew(name, 0)).toBe(true);
    expect(isNew(zone, 1)).toBe(true);
    expect(isNew(name, 2)).toBe(false);
    expect(isNew(zone, 5001)).toBe(true);
  });
});
