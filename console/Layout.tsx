/**
 * The frame of every signed-in view: a sidebar with the app switcher, the app's sections, who is signed in with
 * which role, and Sign out; the view beside it. Asks /api/me first (issue #33): without a session the API's 401
 * sends the visitor to the login page; with one, the sections the role may not use are left out (a viewer's
 * Recordings too, where the app's admin has not let viewers see them: /api/me's `recordingApps`).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { NavLink, Outlet, useNavigate, useParams } from 'react-router';
import { api } from './api';
import type { AppRow, Me, Role } from './types';
import { hasRole, useMe } from './useMe';

/**
 * An app's sections; `role` the least role that sees it, `only` a role that alone sees it, `recordings` left out for
 * a viewer of an app whose recordings viewers may not see.
 */
const SECTIONS: Array<{ to: string; label: string; end?: boolean; role?: Role; only?: Role; recordings?: true }> = [
  { to: '', label: 'Overview', end: true },
  { to: '/events', label: 'Live events' },
  { to: '/visitors', label: 'Visitors' },
  { to: '/accounts', label: 'Accounts' },
  { to: '/features', label: 'Features' },
  { to: '/pages', label: 'Pages' },
  { to: '/paths', label: 'Paths' },
  { to: '/funnels', label: 'Funnels' },
  { to: '/retention', label: 'Retention' },
  { to: '/segments', label: 'Segments' },
  { to: '/recordings', label: 'Recordings', recordings: true },
  { to: '/guides', label: 'Guides' },
  // An editor may change the guides' theme (PUT .../settings/theme) but not the rest of the settings.
  { to: '/theme', label: 'Guide theme', only: 'editor' },
  { to: '/settings', label: 'Settings', role: 'admin' },
  { to: '/install', label: 'Install' },
  { to: '/health', label: 'Health' },
];

/** Whom the sidebar names: the user's name or email, or the admin token. */
function signedInAs(me: Me): string {
  if (!me.user) return 'the admin token';
  return me.user.name || me.user.email;
}

/** The sidebar and the routed view. */
export function Layout() {
  const { apiKey } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const session = useMe();
  const apps = useQuery({ queryKey: ['apps'], queryFn: () => api<AppRow[]>('/api/apps'), enabled: session.isSuccess });
  const logout = async () => {
    await api('/api/logout', { method: 'POST' }).catch(() => undefined);
    client.clear();
    navigate('/login');
  };
  if (!session.isSuccess) {
    return <div className="loading page-loading">{session.error ? session.error.message : 'Checking your session…'}</div>;
  }
  const me = session.data;
  // For a viewer only, the apps whose recordings the admin lets viewers see (settings recording.viewersSeeRecordings).
  const seesRecordings = me.role !== 'viewer' || (apiKey !== undefined && (me.recordingApps ?? []).includes(apiKey));
  const sections = SECTIONS.filter(
    (s) => (s.only ? me.role === s.only : !s.role || hasRole(me.role, s.role)) && (!s.recordings || seesRecordings),
  );
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
            {sections.map((s) => (
              <li key={s.label}>
                <NavLink to={`${base}${s.to}`} end={s.end}>
                  {s.label}
                </NavLink>
              </li>
            ))}
          </ul>
        )}
        <ul className="sections team">
          {me.role === 'admin' && (
            <>
              <li>
                <NavLink to="/users">Users</NavLink>
              </li>
              <li>
                <NavLink to="/audit">Audit</NavLink>
              </li>
            </>
          )}
          {me.user && (
            <li>
              <NavLink to="/me">Your account</NavLink>
            </li>
          )}
        </ul>
        <div className="signed-in" aria-label="Signed in">
          <span className="who">{signedInAs(me)}</span>
          <span className="role-badge">{me.role}</span>
        </div>
        <button type="button" className="logout" onClick={logout}>
          Sign out
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
