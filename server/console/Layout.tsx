/**
 * The frame of every signed-in view: a sidebar with the app switcher, the app's sections and Logout, and the
 * view beside it. Asks /api/session first: without a session the API's 401 sends the visitor to the login page.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { NavLink, Outlet, useNavigate, useParams } from 'react-router';
import { api } from './api';
import type { AppRow } from './types';

const SECTIONS = [
  { to: '', label: 'Overview', end: true },
  { to: '/events', label: 'Live events' },
  { to: '/visitors', label: 'Visitors' },
  { to: '/accounts', label: 'Accounts' },
  { to: '/recordings', label: 'Recordings' },
  { to: '/guides', label: 'Guides' },
  { to: '/settings', label: 'Settings' },
  { to: '/install', label: 'Install' },
  { to: '/health', label: 'Health' },
];

/** The sidebar and the routed view. */
export function Layout() {
  const { apiKey } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const session = useQuery({ queryKey: ['session'], queryFn: () => api<{ authenticated: boolean }>('/api/session') });
  const apps = useQuery({ queryKey: ['apps'], queryFn: () => api<AppRow[]>('/api/apps'), enabled: session.isSuccess });
  const logout = async () => {
    await api('/api/logout', { method: 'POST' }).catch(() => undefined);
    client.clear();
    navigate('/login');
  };
  if (!session.isSuccess) {
    return <div className="loading page-loading">{session.error ? session.error.message : 'Checking your session…'}</div>;
  }
  const keys = apps.data?.map((a) => a.apiKey) ?? [];
  if (apiKey && !keys.includes(apiKey)) keys.push(apiKey);
  const base = apiKey ? `/apps/${encodeURIComponent(apiKey)}` : '';
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Console">
        <NavLink to="/" className="brand" end>
          <span className="logo" aria-hidden="true">◆</span> Waymark
        </NavLink>
        <label className="switcher">
          <span>App</span>
          <select
            aria-label="App"
            value={apiKey ?? ''}
            onChange={(e) => navigate(e.target.value ? `/apps/${encodeURIComponent(e.target.value)}` : '/')}
          >
            <option value="">All apps</option>
            {keys.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
        </label>
        {apiKey && (
          <ul className="sections">
            {SECTIONS.map((s) => (
              <li key={s.label}>
                <NavLink to={`${base}${s.to}`} end={s.end}>
                  {s.label}
                </NavLink>
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="logout" onClick={logout}>
          Log out
        </button>
      </nav>
      <main className="view">
        <Suspense fallback={<div className="loading">Loading…</div>}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
