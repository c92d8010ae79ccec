/** One account: metadata, its visitors, and the guides its visitors saw, completed and dismissed. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, appPath } from '../api';
import { JsonView } from '../components/JsonView';
import { GuideFigures } from '../components/GuideFigures';
import { QueryState } from '../components/QueryState';
import { formatAgo, formatCount } from '../format';
import type { AccountDetail } from '../types';

/** The page. */
export function AccountPage() {
  const { apiKey, accountId } = useParams() as { apiKey: string; accountId: string };
  const account = useQuery({
    queryKey: ['account', apiKey, accountId],
    queryFn: () => api<AccountDetail>(appPath(apiKey, `/accounts/${encodeURIComponent(accountId)}`)),
  });
  const a = account.data;
  return (
    <>
      <header className="view-head">
        <h1>
          <Link to={`/apps/${encodeURIComponent(apiKey)}/accounts`} className="crumb">Accounts</Link> / {accountId}
        </h1>
      </header>
      <QueryState isPending={account.isPending} error={account.error}>
        {a && (
          <div className="grid2 wide-left">
            <section className="card">
              <h2>Visitors</h2>
              <table className="table">
                <thead>
                  <tr>
                    <th>Visitor</th>
                    <th className="num">Events</th>
                    <th>Last seen</th>
                  </tr>
                </thead>
                <tbody>
                  {a.visitors.map((v) => (
                    <tr key={v.visitorId}>
                      <td>
                        <Link to={`/apps/${encodeURIComponent(apiKey)}/visitors/${encodeURIComponent(v.visitorId)}`}>{v.visitorId}</Link>
                      </td>
                      <td className="num">{formatCount(v.events)}</td>
                      <td>{formatAgo(v.lastSeen)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section className="card">
              <h2>Metadata</h2>
              <JsonView label="Account metadata" value={a.metadata ?? {}} />
            </section>
          </div>
        )}
        {a && (
          <GuideFigures
            apiKey={apiKey}
            query={`accountId=${encodeURIComponent(accountId)}`}
            title="Guides of this account's visitors"
            empty="None of this account's visitors has seen a guide."
          />
        )}
      </QueryState>
    </>
  );
}
