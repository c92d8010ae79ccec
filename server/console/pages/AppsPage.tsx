/** Every app (api key) with data or guides: events, visitors, last seen, guides; a row opens its overview. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { formatAgo, formatCount } from '../format';
import type { AppRow } from '../types';

/** The page. */
export function AppsPage() {
  const apps = useQuery({ queryKey: ['apps'], queryFn: () => api<AppRow[]>('/api/apps') });
  return (
    <>
      <header className="view-head">
        <h1>Apps</h1>
      </header>
      <QueryState isPending={apps.isPending} error={apps.error}>
        {apps.data?.length === 0 ? (
          <Empty>
            <h2>No data yet</h2>
            <p>
              Install the agent on a page (<code>waymark.initialize({'{'} apiKey: 'your-app' {'}'})</code>) and load it:
              its app appears here with the first event. The demo at <a href="/">/</a> sends to <code>demo-app</code>.
            </p>
          </Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>App</th>
                <th className="num">Events</th>
                <th className="num">Visitors</th>
                <th className="num">Guides</th>
                <th>Last event</th>
              </tr>
            </thead>
            <tbody>
              {apps.data?.map((app) => (
                <tr key={app.apiKey}>
                  <td>
                    <Link to={`/apps/${encodeURIComponent(app.apiKey)}`}>{app.apiKey}</Link>
                  </td>
                  <td className="num">{formatCount(app.events)}</td>
                  <td className="num">{formatCount(app.visitors)}</td>
                  <td className="num">{formatCount(app.guides)}</td>
                  <td>{formatAgo(app.lastSeen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}
