/** An app's visitors, most recent first, searched by id. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, appPath } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { formatAgo, formatCount, formatTime } from '../format';
import type { VisitorRow } from '../types';

/** The page. */
export function VisitorsPage() {
  const apiKey = useParams().apiKey!;
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const visitors = useQuery({
    queryKey: ['visitors', apiKey, q],
    queryFn: () => api<VisitorRow[]>(appPath(apiKey, `/visitors?${new URLSearchParams(q ? { q, limit: '100' } : { limit: '100' })}`)),
  });
  return (
    <>
      <header className="view-head">
        <h1>Visitors</h1>
        <SearchBox value={q} label="Search visitors" onSearch={(next) => setParams(next ? { q: next } : {}, { replace: true })} />
      </header>
      <QueryState isPending={visitors.isPending} error={visitors.error}>
        {visitors.data?.length === 0 ? (
          <Empty>{q ? <p>No visitor id contains “{q}”.</p> : <p>No visitors yet.</p>}</Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Visitor</th>
                <th>Account</th>
                <th className="num">Events</th>
                <th>First seen</th>
                <th>Last seen</th>
              </tr>
            </thead>
            <tbody>
              {visitors.data?.map((v) => (
                <tr key={v.visitorId}>
                  <td>
                    <Link to={`/apps/${encodeURIComponent(apiKey)}/visitors/${encodeURIComponent(v.visitorId)}`}>{v.visitorId}</Link>
                  </td>
                  <td>{v.accountId ? <Link to={`/apps/${encodeURIComponent(apiKey)}/accounts/${encodeURIComponent(v.accountId)}`}>{v.accountId}</Link> : '—'}</td>
                  <td className="num">{formatCount(v.events)}</td>
                  <td>{formatTime(v.firstSeen)}</td>
                  <td>{formatAgo(v.lastSeen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}

/** A search input that searches on Enter (and when cleared). */
export function SearchBox({ value, label, onSearch }: { value: string; label: string; onSearch(q: string): void }) {
  return (
    <form
      className="toolbar"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(String(new FormData(e.currentTarget).get('q') ?? '').trim());
      }}
    >
      <input name="q" type="search" aria-label={label} placeholder="Search by id…" defaultValue={value} onChange={(e) => e.target.value === '' && onSearch('')} />
      <button type="submit">Search</button>
    </form>
  );
}
