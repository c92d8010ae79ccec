/**
 * An invitation link, /console/invitation/{token} (issue #33): the invited person sets their name and a password
 * (the rule shown before they submit) and lands in the console signed in. A used, expired or unknown link shows
 * the server's message. The token is in the URL: the server sends this page with `Referrer-Policy: no-referrer`
 * (server/createStaticHandler.ts), and the page says so again in a meta, so no request from it carries the link.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api';

/** The server's rule (docs/users-and-roles.md): 12 to 1024 characters, counted as code points. */
const PASSWORD_MIN = 12;
const PASSWORD_MAX = 1024;

/** Makes the document's referrer policy no-referrer, whatever the index page's meta said. */
function useNoReferrer(): void {
  useEffect(() => {
    let meta = document.querySelector<HTMLMetaElement>('meta[name="referrer"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'referrer';
      document.head.append(meta);
    }
    meta.content = 'no-referrer';
  }, []);
}

/** The page. */
export function InvitationPage() {
  useNoReferrer();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const length = [...password].length;
  const problem =
    length < PASSWORD_MIN ? `${PASSWORD_MIN - length} more character${PASSWORD_MIN - length === 1 ? '' : 's'} to go` :
    length > PASSWORD_MAX ? `at most ${PASSWORD_MAX} characters` :
    repeat !== password ? 'the two passwords differ' : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      await api(`/api/invitations/${encodeURIComponent(token)}`, { method: 'POST', body: { password, ...(name.trim() ? { name: name.trim() } : {}) } });
      client.clear();
      navigate('/', { replace: true });
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <div className="login">
      <form className="card login-card" onSubmit={submit} aria-label="Accept the invitation">
        <h1>
          <span className="logo" aria-hidden="true">◆</span> Join Waymark
        </h1>
        <p className="muted">You were invited to the Waymark Console. Choose a password to sign in with from now on.</p>
        <label htmlFor="name">Your name (optional)</label>
        <input id="name" name="name" autoComplete="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="new-password">Password</label>
        <input
          id="new-password"
          name="new-password"
          type="password"
          autoComplete="new-password"
          autoFocus
          required
          aria-describedby="password-rule"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <p id="password-rule" className="rule">
          At least {PASSWORD_MIN} characters{password && problem ? `: ${problem}` : ''}.
        </p>
        <label htmlFor="repeat-password">The password again</label>
        <input id="repeat-password" name="repeat-password" type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || problem !== null}>
          {busy ? 'Signing in…' : 'Set password and sign in'}
        </button>
      </form>
    </div>
  );
}
