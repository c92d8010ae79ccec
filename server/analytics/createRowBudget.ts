/**
 * The bound of a paths question (issue #35 "Fast at real volumes"; STYLE §9): the event rows it reads (from `events`
 * or the timelines' copy), all its statements together (the start's events and the events around each; while the
 * start's rule is not backfilled, the start's distinct addresses or elements, the visitors who did it, those
 * visitors' events), at most `max`. Each statement asks for one row more than is left (`limit $4`); getting it means
 * the question cannot be read exactly, and is a 400 naming `to` (no sampling: the caller shortens the range).
 * Every statement read through a budget takes `$1` api key, `$2` from, `$3` to, `$4` limit, then its own
 * parameters from `$5`.
 */
import { HttpError } from '../HttpError';
import type { Database } from '../storage/Database';

/** A statement's span: the app and [from, to), epoch ms. */
export interface BudgetSpan {
  apiKey: string;
  from: number;
  to: number;
}

/** Reads statements within one question's budget. */
export interface RowBudget {
  /** The rows of `sql` over `span`, with `params` as `$5...`; a 400 naming `to` past the budget. */
  read<T>(sql: string, span: BudgetSpan, params?: unknown[]): Promise<T[]>;
}

/** A budget of `max` rows. */
export function createRowBudget(db: Database, max: number): RowBudget {
  let left = max;
  return {
    async read<T>(sql: string, { apiKey, from, to }: BudgetSpan, params: unknown[] = []) {
      const { rows } = await db.query<T>(sql, [apiKey, from, to, left + 1, ...params]);
      if (rows.length > left) {
        throw new HttpError(400, `this range holds more than ${max} rows for paths to read exactly (the start's events and the events around each, or, while its rule is not backfilled, the span's distinct addresses or elements, the visitors who did it and their page loads, clicks and track events): shorten the range (to)`, 'to');
      }
      left -= rows.length;
      return rows;
    },
  };
}
