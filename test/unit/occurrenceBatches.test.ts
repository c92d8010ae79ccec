/**
 * issue #35 paths (server/analytics/occurrencePaths.ts): the walks of a question are read in batches of
 * OCCURRENCE_BATCH, both ways at once, each way at its own pace. A 10M bench question failed with a 500 when the back
 * chunks ran ahead: a later forward batch asked for walks that the back chunks had settled meanwhile (a start that
 * reads as a repeat needs nothing after it). Here the forward reads wait until every back read is done, which the
 * real database does not promise either way; the answer must be every visitor's path all the same.
 */
import { describe, expect, it } from 'vitest';
import type { BudgetSpan, RowBudget } from '../../server/analytics/createRowBudget';
import { pageStep, type StepReader } from '../../server/analytics/createStepReader';
import { OCCURRENCE_BATCH, occurrencePaths } from '../../server/analytics/occurrencePaths';
import type { StartRow } from '../../server/analytics/pathStartEvents';
import type { TimelineRow } from '../../server/analytics/timelineRows';

const T0 = Date.UTC(2026, 2, 2);
const BULK = pageStep({ id: 'bulk', name: 'Bulk' });
const readStep: StepReader = (event) => (event.url?.endsWith('/bulk') ? BULK : event.url ? { key: `url:${new URL(event.url).pathname}`, label: event.url, kind: 'url' } as never : null);

describe('paths read in batches, both ways at their own pace', () => {
  it('a forward batch leaves out the walks the back chunks settled meanwhile, and every path is still found', async () => {
    // Each visitor loads Bulk twice (the second a repeat, settled by its back chunk), then /after/{i % 3}.
    const visitors = Math.ceil(OCCURRENCE_BATCH / 2) + 200;
    // Each row as both readings have it: the copy's (no keys) and the texts the fake's source answers.
    const timelines = new Map<string, Array<TimelineRow & StartRow>>();
    let id = 0;
    for (let i = 0; i < visitors; i++) {
      const row = (t: number, path: string): TimelineRow & StartRow => ({ visitor: `v${i}`, time: T0 + i * 1000 + t, id: ++id, session: `s${i}`, type: 'load', url: `https://app.example${path}`, target: null, track: null, element_key: null, address_key: null });
      timelines.set(`v${i}`, [row(0, '/bulk'), row(1, '/bulk'), row(2, `/after/${i % 3}`)]);
    }
    let backReads = 0;
    let backDone = () => {};
    const allBackRead = new Promise<void>((resolve) => (backDone = resolve));
    const budget: RowBudget = {
      async read<T>(sql: string, _span: BudgetSpan, params: unknown[] = []): Promise<T[]> {
        const back = sql.includes('time desc');
        const [vs, times, ids, sizes] = params as [string[], number[], number[], number[]];
        if (!back) await allBackRead;
        const rows = vs.flatMap((v, n) => {
          const later = (r: TimelineRow) => Number(r.time) > times[n]! || (Number(r.time) === times[n] && Number(r.id) > ids[n]!);
          const side = timelines.get(v)!.filter((r) => (back ? !later(r) && Number(r.id) !== ids[n] : later(r)));
          return (back ? side.reverse() : side).slice(0, sizes[n]).map((r) => ({ ...r, n: n + 1 }));
        });
        // Two back batches, then every forward read goes.
        if (back && ++backReads === 2) backDone();
        return rows as T[];
      },
    };
    const starts = [...timelines.values()].flatMap((rows) => rows.slice(0, 2));
    const span = { apiKey: 'k', from: T0 - 7_200_000, to: T0 + visitors * 1000 + 7_200_000 };
    // The fake's rows carry their texts already (in place of the copy's keys: timelineKeyTexts.ts).
    const texts = { learn: async () => {}, source: (row: unknown) => row as TimelineRow };
    const paths = await occurrencePaths({ budget, texts, readStep }, span, starts, { startKey: BULK.key, direction: 'next', depth: 1, from: T0, to: T0 + visitors * 1000 });
    expect(paths).toHaveLength(visitors);
    expect(paths.filter((p) => p.steps[0]?.key === 'url:/after/1')).toHaveLength(Math.ceil((visitors - 1) / 3));
  });
});
