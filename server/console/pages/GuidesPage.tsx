/** An app's guides: state, launch method, steps, and seen / completed / dismissed visitors. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, appPath } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { StateBadge } from '../components/StateBadge';
import { formatAgo, formatCount } from '../format';
import type { GuideRow } from '../types';

/** The page. */
export function GuidesPage() {
  const apiKey = useParams().apiKey!;
  const guides = useQuery({ queryKey: ['guides', apiKey], queryFn: () => api<GuideRow[]>(appPath(apiKey, '/guides')) });
  const base = `/apps/${encodeURIComponent(apiKey)}/guides`;
  return (
    <>
      <header className="view-head">
        <h1>Guides</h1>
        <Link to={`${base}/new`} className="button primary">
          New guide
        </Link>
      </header>
      <QueryState isPending={guides.isPending} error={guides.error}>
        {guides.data?.length === 0 ? (
          <Empty>
            <h2>No guides in this app</h2>
            <p>Create one: it starts as a draft lightbox you can edit, preview on your pages once published, and measure here.</p>
          </Empty>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Guide</th>
                <th>State</th>
                <th>Launch</th>
                <th className="num">Steps</th>
                <th className="num">Seen</th>
                <th className="num">Completed</th>
                <th className="num">Dismissed</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {guides.data?.map((g) => (
                <tr key={g.id}>
                  <td>
                    <Link to={`${base}/${encodeURIComponent(g.id)}`}>{g.name}</Link>
                    <div className="muted small">{g.id}</div>
                  </td>
                  <td>
                    <StateBadge state={g.state} />
                  </td>
                  <td>{g.launchMethod}</td>
                  <td className="num">{g.stepCount}</td>
                  <td className="num">{formatCount(g.stats.seen)}</td>
                  <td className="num">{formatCount(g.stats.completed)}</td>
                  <td className="num">{formatCount(g.stats.dismissed)}</td>
                  <td>{formatAgo(g.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}
