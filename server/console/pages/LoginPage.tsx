/** The login page: one input for the admin token; Enter submits; the server's refusal is shown as it says it. */
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../api';

/** Where a successful login goes: `next` when it is a console path, else the apps. */
function nextPath(next: string | null): string {
  if (!next || !next.startsWith('/console/') || next.startsWith('/console/login')) return '/';
  return next.slice('/console'.length);
}

/** The page. */
export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('/api/login', { method: 'POST', body: { token: token.trim() } });
      navigate(nextPath(params.get('next')), { replace: true });
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <div className="login">
      <form className="card login-card" onSubmit={submit}>
        <h1>
          <span className="logo" aria-hidden="true">◆</span> Waymark Console
        </h1>
        <p className="muted">
          Paste the admin token. The server printed it at its first start; it is kept in the data folder
          (<code>.data/pglite/admin-token</code>) unless <code>WAYMARK_ADMIN_TOKEN</code> is set.
        </p>
        <label htmlFor="token">Admin token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="current-password"
          autoFocus
          required
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || !token.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
