/**
 * shim/jsonSafe: a host's metadata and track properties as JSON carries them, so that they always cross to the
 * worker (analytics §5): before it, one function in one event's data lost the whole batch.
 */
import { describe, expect, it } from 'vitest';
import { jsonSafe } from '../../shim/jsonSafe';

describe('jsonSafe', () => {
  it('drops functions, symbols and undefined, writes a BigInt as its digits and a Date as JSON does', () => {
    const when = new Date(Date.UTC(2026, 10, 26, 9, 30));
    expect(jsonSafe({ f: () => 1, s: Symbol('x'), u: undefined, n: 1, big: BigInt(12), when, list: [1, () => 2, 'x'] })).toEqual({
      n: 1,
      big: '12',
      when: '2026-11-26T09:30:00.000Z',
      list: [1, null, 'x'],
    });
  });

  it('cuts a cycle where an object meets itself again, and keeps an object shared by two keys', () => {
    const plan = { name: 'pro' };
    const user: Record<string, unknown> = { id: 'u1', plan, billing: { plan } };
    user.self = user;
    (plan as Record<string, unknown>).owner = user;
    expect(jsonSafe(user)).toEqual({
      id: 'u1',
      plan: { name: 'pro', owner: '[Circular]' },
      billing: { plan: { name: 'pro', owner: '[Circular]' } },
      self: '[Circular]',
    });
  });

  it('answers what it was given for a value JSON has no text for', () => {
    expect(jsonSafe(undefined)).toBeUndefined();
    expect(jsonSafe('plain')).toBe('plain');
  });
});
