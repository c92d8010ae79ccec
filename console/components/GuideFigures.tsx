/**
 * The guides most seen, with the visitors who saw, completed and dismissed each (resource center modules aside):
 * the overview's for its range, the account page's for the account's visitors (GET .../guides with a filter).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, appPath } from '../api';
import { formatCount } from '../format';
import type { GuideRow } from '../types';
import { QueryState } from './QueryState';

/** How many guides are listed. */
const TOP_GUIDES = 5;

export function GuideFigures({ apiKey, query, title, empty }: { apiKey: string; query: string; title: string; empty: string }) {
  const guides = useQuery({
    queryKey: ['guides', apiKey, query],
    queryFn: () => api<GuideRow[]>(appPath(apiKey, `/guides?${query}`)),
  });
  const top = (guides.data ?? [])
    .filter((g) => g.kind !== 'module' && g.stats.seen > 0)
    .sort((a, b) => b.stats.seen - a.stats.seen || a.name.localeCompare(b.name))
    .slice(0, TOP_GUIDES);
  const base = `/apps/${encodeURIComponent(apiKey)}/guides`;
  return (
    <section className="card">
      <h2>{title}</h2>
      <QueryState isPending={guides.isPending} error={guides.error}>
        {top.length === 0 ? (
          <p className="muted">{empty}</p>
        ) : (
          <table className="table" aria-label={title}>
            <thead>
              <tr>
                <th>Guide</th>
                <th className="num">Seen</th>
                <th className="num">Completed</th>
                <th className="num">Dismissed</th>
              </tr>
            </thead>
            <tbody>
              {top.map((g) => (
                <tr key={g.id}>
                  <td>
                    <Link to={`${base}/${encodeURIComponent(g.id)}`}>{g.name}</Link>
                  </td>
                  <td className="num">{formatCount(g.stats.seen)}</td>
                  <td className="num">{formatCount(g.stats.completed)}</td>
                  <td className="num">{formatCount(g.stats.dismissed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      <p>
        <Link to={base}>All guides →</Link>
      </p>
    </section>
  );
}
