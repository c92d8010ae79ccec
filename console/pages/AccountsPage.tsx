/** An app's accounts, searched by id. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, appPath } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { formatAgo, formatCount } from '../format';
import type { AccountRow } from '../types';
import { SearchBox } from './VisitorsPage';

/** The page. */
export function AccountsPage() {
  const apiKey = useParams().apiKey!;
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const accounts = useQuery({
    queryKey: ['accounts', apiKey, q],
    queryFn: () => api<AccountRow[]>(appPath(apiKey, `/accounts?${new URLSearchParams(q ? { q, limit: '100' } : { limit: '100' })}`)),
  });
  return (
    <>
      <header className="view-head">
        <h1>Accounts</h1>
        <SearchBox value={q} label="Search accounts" onSearch={(next) => setParams(next ? { q: next } : {}, { replace: true })} />
      </header>
      <QueryState isPending={accounts.isPending} error={accounts.error}>
        {accounts.data?.length === 0 ? (
          <Empty>{q ? <p>No account id contains “{q}”.</p> : <p>No accounts yet: the agent sends one when the host identifies it.</p>}</Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Account</th>
                <th className="num">Visitors</th>
                <th className="num">Events</th>
                <th>Last seen</th>
              </tr>
            </thead>
            <tbody>
              {accounts.data?.map((a) => (
                <tr key={a.accountId}>
                  <td>
                    <Link to={`/apps/${encodeURIComponent(apiKey)}/accounts/${encodeURIComponent(a.accountId)}`}>{a.accountId}</Link>
                  </td>
                  <td className="num">{formatCount(a.visitors)}</td>
                  <td className="num">{formatCount(a.events)}</td>
                  <td>{formatAgo(a.lastSeen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}
