/**
 * Every app (api key) with data or guides: events, visitors, last seen, guides, and what its agents reported in the
 * last 24 hours (OK, or the failures, linking to its Health page); a row opens its overview. A new
 * app is a key the console checks, made on the server (`POST /api/apps`: a collector started with WAYMARK_APPS=known
 * accepts data only for apps made so, issue #31), then an Install page with its snippet.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { appKeyProblem } from '../installSnippet';
import { api } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { formatAgo, formatCount } from '../format';
import type { AppRow } from '../types';
import { useCan } from '../useMe';

/** The page. */
export function AppsPage() {
  const apps = useQuery({ queryKey: ['apps'], queryFn: () => api<AppRow[]>('/api/apps') });
  // Making an app writes its settings: an admin's (POST /api/apps).
  const canAdd = useCan('admin');
  return (
    <>
      <header className="view-head">
        <h1>Apps</h1>
      </header>
      {canAdd && <AddApp />}
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
                <th>Agent health, 24 h</th>
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
                  <td>
                    <HealthGlance apiKey={app.apiKey} health={app.health24h} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}

/** What the app's agents reported in the last 24 hours, in words, linking to its Health page. */
function HealthGlance({ apiKey, health }: { apiKey: string; health: AppRow['health24h'] }) {
  const to = `/apps/${encodeURIComponent(apiKey)}/health?range=24h`;
  if (!health.reports) return <span className="muted">no report</span>;
  const trouble: Array<[number, string, string]> = [
    [health.beaconsFailed, 'failed beacon attempt', 'failed beacon attempts'],
    [health.eventsDropped, 'event given up', 'events given up'],
    [health.guideLoadFailures, 'failed guide load', 'failed guide loads'],
    [health.errors, 'error', 'errors'],
  ];
  const said = trouble.filter(([n]) => n > 0).map(([n, one, many]) => `${formatCount(n)} ${n === 1 ? one : many}`);
  return said.length ? (
    <Link to={to} className="warn-figure">
      {said.join(', ')}
    </Link>
  ) : (
    <Link to={to}>OK</Link>
  );
}

/** A key for a new app (one is offered), checked, made on the server (an existing app is left as it is), then its Install page. */
function AddApp() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [key, setKey] = useState(() => `app-${Math.random().toString(36).slice(2, 8)}`);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const apiKey = key.trim();
    const wrong = appKeyProblem(apiKey);
    setProblem(wrong);
    if (wrong) return;
    try {
      await api('/api/apps', { method: 'POST', body: { apiKey } });
    } catch (err) {
      setProblem((err as Error).message);
      return;
    }
    void client.invalidateQueries({ queryKey: ['apps'] });
    navigate(`/apps/${encodeURIComponent(apiKey)}/install`);
  };
  return (
    <form className="card form add-app" onSubmit={submit} aria-label="Add an app">
      <div className="row">
        <label className="field">
          <span>Add an app: its key (the apiKey its pages send with)</span>
          <input value={key} spellCheck={false} aria-invalid={problem ? true : undefined} aria-describedby={problem ? 'app-key-problem' : undefined} onChange={(e) => setKey(e.target.value)} />
        </label>
        <button type="submit" className="primary">
          Install it
        </button>
      </div>
      {problem && (
        <p id="app-key-problem" className="field-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
