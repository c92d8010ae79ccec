/**
 * The login page (issues #14, #33): "Sign in with SSO" when the server has single sign-on (GET /api/login-options),
 * then email and password; the admin token, the owner's key for set-up and scripts, as a last way ("Sign in with the
 * admin token"). Enter submits; each refusal is shown as the server words it (wrong email or password, too many
 * attempts, a wrong token). A refused single sign-on comes back here with `?error=<code>`: the page shows that code's
 * own words (shared/auth/ssoRefusals.ts), never text read from the URL.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isSsoRefusal, SSO_REFUSALS } from '../../shared/auth/ssoRefusals';
import { api } from '../api';

/** Where a successful login goes: `next` when it is a console path, else the apps. */
function nextPath(next: string | null): string {
  if (!next || !next.startsWith('/console/') || next.startsWith('/console/login')) return '/';
  return next.slice('/console'.length);
}

/** What a sign-in form sends, and where its refusal shows. */
function useSignIn(next: string) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (event: FormEvent, body: Record<string, string>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('/api/login', { method: 'POST', body });
      // Whoever was signed in before (and what their role could read) is not the one signed in now.
      client.clear();
      navigate(next, { replace: true });
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return { error, busy, send };
}

/** Single sign-on's way in: a link to the server's start, which comes back to `next` (a console path) once signed in. */
function SsoSignIn({ next }: { next: string }) {
  const options = useQuery({ queryKey: ['login-options'], queryFn: () => api<{ sso: boolean }>('/api/login-options'), staleTime: Infinity, retry: false });
  if (!options.data?.sso) return null;
  // A full navigation: the server redirects to the provider, and the provider back to the server.
  return (
    <a className="button primary" style={{ justifyContent: 'center' }} href={`/api/sso/start?return=${encodeURIComponent(`/console${next}`)}`}>
      Sign in with SSO
    </a>
  );
}

/** The page: single sign-on when the server has it, the email and password form, and under them the admin token's. */
export function LoginPage() {
  const [params] = useSearchParams();
  const next = nextPath(params.get('next'));
  const ssoError = params.get('error');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const user = useSignIn(next);
  const admin = useSignIn(next);
  return (
    <div className="login">
      <div className="card login-card">
        <h1>
          <span className="logo" aria-hidden="true">◆</span> Waymark Console
        </h1>
        {isSsoRefusal(ssoError) && (
          <p className="error" role="alert">
            {SSO_REFUSALS[ssoError]}
          </p>
        )}
        <SsoSignIn next={next} />
        <form className="login-form" aria-label="Sign in" onSubmit={(e) => void user.send(e, { email: email.trim(), password })}>
          <label htmlFor="email">Email</label>
          <input id="email" name="email" type="email" autoComplete="username" autoFocus required value={email} onChange={(e) => setEmail(e.target.value)} />
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          {user.error && (
            <p className="error" role="alert">
              {user.error}
            </p>
          )}
          <button type="submit" className="primary" disabled={user.busy || !email.trim() || !password}>
            {user.busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <form className="login-form token-form" aria-label="The owner's key" onSubmit={(e) => void admin.send(e, { token: token.trim() })}>
          <p className="muted">
            Or the admin token, the owner&apos;s key: the server printed it at its first start; it is kept in the data folder
            (<code>.data/pglite/admin-token</code>) unless <code>WAYMARK_ADMIN_TOKEN</code> is set.
          </p>
          <label htmlFor="token">Admin token</label>
          <input id="token" name="token" type="password" autoComplete="off" required value={token} onChange={(e) => setToken(e.target.value)} />
          {admin.error && (
            <p className="error" role="alert">
              {admin.error}
            </p>
          )}
          <button type="submit" disabled={admin.busy || !token.trim()}>
            {admin.busy ? 'Signing in…' : 'Sign in with the admin token'}
          </button>
        </form>
      </div>
    </div>
  );
}
