import { describe, expect, it } from 'vitest';
import { eventsCsv, eventsCsvStream } from '../../server/queries/eventsCsv';
import { toConsoleEvent } from '../../server/queries/toConsoleEvent';
import type { ConsoleEvent } from '../../shared/api';

const event = (fields: Partial<ConsoleEvent>): ConsoleEvent => ({
  id: 1, receivedAt: Date.UTC(2026, 10, 26, 9, 0, 1), time: Date.UTC(2026, 10, 26, 9, 0, 0), kind: 'analytics', type: 'click',
  visitorId: 'v1', accountId: null, url: 'https://app.example/reports', element: { tag: 'BUTTON', id: 'export', text: 'Export CSV' }, name: null, ...fields,
});

describe('the console\'s events as CSV', () => {
  it('has a header row, ISO times, CRLF line ends, and empty cells for what is missing', () => {
    expect(eventsCsv([event({})])).toBe(
      'id,received_at,time,kind,type,visitor_id,account_id,url,element_tag,element_id,element_text,name\r\n' +
        '1,2026-11-26T09:00:01.000Z,2026-11-26T09:00:00.000Z,analytics,click,v1,,https://app.example/reports,BUTTON,export,Export CSV,\r\n',
    );
    expect(eventsCsv([])).toBe('id,received_at,time,kind,type,visitor_id,account_id,url,element_tag,element_id,element_text,name\r\n');
  });

  it('quotes a cell with a comma, quote or line break (RFC 4180), and never lets a cell become a spreadsheet formula', () => {
    const line = eventsCsv([event({ element: { tag: 'A', id: '', text: 'Say "hi", then\nleave' }, name: '=HYPERLINK("x")', visitorId: '+1', url: '@sum' })]).split('\r\n')[1];
    expect(line).toBe(`1,2026-11-26T09:00:01.000Z,2026-11-26T09:00:00.000Z,analytics,click,'+1,,'@sum,A,,"Say ""hi"", then\nleave","'=HYPERLINK(""x"")"`);
  });
});

describe('the CSV written as it is read', () => {
  /** A database of `n` click events, ids n..1, answering the list's query by its keyset and limit. */
  function fakeDb(n: number) {
    const rows = Array.from({ length: n }, (_, i) => ({ id: n - i, received_at: 1_000 + n - i, kind: 'analytics', type: 'click', visitor_id: 'v', url: 'http://app/', el_tag: 'A', el_id: '', el_text: `link ${n - i}` }));
    const reads: Array<{ before: unknown; limit: unknown }> = [];
    const db = {
      async query(sql: string, params: unknown[]) {
        const keyset = /id < \$(\d+)/.exec(sql);
        const before = keyset ? Number(params[Number(keyset[1]) - 1]) : Infinity;
        const limit = Number(params[params.length - 1]);
        reads.push({ before: keyset ? before : undefined, limit });
        expect(sql).toContain('order by id desc');
        return { rows: rows.filter((r) => r.id < before).slice(0, limit) };
      },
    };
    return { db: db as never, reads, events: rows.map(toConsoleEvent) };
  }
  const all = async (pages: AsyncGenerator<string>) => {
    let text = '';
    for await (const page of pages) text += page;
    return text;
  };

  it('reads a page at a time on the id keyset and writes the same file as one read would', async () => {
    const { db, reads, events } = fakeDb(10);
    const text = await all(eventsCsvStream(db, { apiKey: 'k', limit: 100 }, 4));
    expect(text).toBe(eventsCsv(events));
    expect(reads).toEqual([{ before: undefined, limit: 4 }, { before: 7, limit: 4 }, { before: 3, limit: 4 }]);
  });

  it('stops at the limit, mid-page, without a read past it', async () => {
    const { db, reads, events } = fakeDb(10);
    const text = await all(eventsCsvStream(db, { apiKey: 'k', limit: 6 }, 4));
    expect(text).toBe(eventsCsv(events.slice(0, 6)));
    expect(reads).toEqual([{ before: undefined, limit: 4 }, { before: 7, limit: 2 }]);
  });

  it('an app without events is the header alone, after one read', async () => {
    const { db, reads } = fakeDb(0);
    expect(await all(eventsCsvStream(db, { apiKey: 'k', limit: 10_000 }))).toBe(eventsCsv([]));
    expect(reads).toHaveLength(1);
  });
});
