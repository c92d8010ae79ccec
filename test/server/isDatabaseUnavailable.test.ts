/** Issue #19: which database errors make the collector answer 503 rather than 500. */
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../server/storage/isDatabaseUnavailable';

describe('issue #19 a database that is away answers 503', () => {
  it('connection exceptions, shutdowns, too many connections and socket errors are unavailability', () => {
    for (const code of ['08006', '08001', '57P01', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('a bad statement, bad data or anything else is not', () => {
    for (const code of ['42P01', '23505', '22P02', 'FST_ERR_CTP_BODY_TOO_LARGE']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(false);
    }
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
