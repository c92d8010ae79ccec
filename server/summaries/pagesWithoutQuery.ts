/**
 * A page, to the console, is its address without query and fragment: `/reports?id=7` and `/reports#top` are the
 * page `/reports` (a product team counts pages, not each address an app writes its state into). The summaries
 * keep pages so (summarizeEventsSql), and this migration brings summaries kept before then to the same: rows of
 * one page merged, their events summed and their visitors' active hours joined. Safe to run again: pages merge
 * into themselves.
 */

/** The SQL of `column`'s page: the address up to its first `?` or `#`. */
export const pageOf = (column: string) => `regexp_replace(${column}, '[?#].*$', '')`;

/** One transaction; the summarizer's upserts wait for it (the tables are locked). */
export const PAGES_WITHOUT_QUERY = `
begin;
lock table console_pages, console_page_visitors in exclusive mode;
create temporary table merged_pages as
  select api_key, grain, t, ${pageOf('url')} as url, sum(events)::bigint as events
  from console_pages group by 1, 2, 3, 4;
delete from console_pages;
insert into console_pages (api_key, grain, t, url, events)
  select api_key, grain, t, url, events from merged_pages where url <> '' order by 1, 2, 3, 4;
drop table merged_pages;
create temporary table merged_page_visitors as
  select api_key, ${pageOf('url')} as url, visitor_id, range_agg(hours) as active
  from console_page_visitors, unnest(active) as hours group by 1, 2, 3;
delete from console_page_visitors;
insert into console_page_visitors (api_key, url, visitor_id, active)
  select api_key, url, visitor_id, active from merged_page_visitors where url <> '' order by 1, 2, 3;
drop table merged_page_visitors;
commit;
`;
