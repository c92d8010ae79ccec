import { describe, expect, it } from 'vitest';
import { eventsCsv } from '../../server/queries/eventsCsv';
import type { ConsoleEvent } from '../../server/queries/toConsoleEvent';

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
