/**
 * An invitation link, /console/invitation/{token} (issue #33): the invited person sets their name and a password
 * (the rule shown before they submit) and lands in the console signed in. The page first asks the server whom the
 * link is for (`GET /api/invitations/{token}`): the email and role it signs in as, and until when it opens; a used,
 * expired or unknown link shows the server's message and the way to sign in, without a form to fill in for nothing. The token is in the URL: the server sends this page with `Referrer-Policy: no-referrer`
 * (server/createStaticHandler.ts), and the page says so again in a meta, so no request from it carries the link.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api';
import { formatTime } from '../format';
import type { InvitationInfo } from '../types';

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
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => api<InvitationInfo>(`/api/invitations/${encodeURIComponent(token)}`),
    retry: false,
    staleTime: Infinity,
  });
  const [name, setName] = useState('');
  const invitedName = invitation.data?.name;
  useEffect(() => {
    if (invitedName) setName((typed) => typed || invitedName);
  }, [invitedName]);
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
  const heading = (
    <h1>
      <span className="logo" aria-hidden="true">◆</span> Join Waymark
    </h1>
  );
  if (invitation.isPending || invitation.isError) {
    return (
      <div className="login">
        <div className="card login-card">
          {heading}
          {invitation.isPending ? (
            <p className="muted">Reading the invitation…</p>
          ) : (
            <>
              <p className="error" role="alert">
                {invitation.error.message}
              </p>
              <p>
                <Link to="/login">Sign in</Link> if you already have a password.
              </p>
            </>
          )}
        </div>
      </div>
    );
  }
  const { email, role, expiresAt } = invitation.data;
  return (
    <div className="login">
      <form className="card login-card" onSubmit={submit} aria-label="Accept the invitation">
        {heading}
        <p className="muted">
          You were invited to the Waymark Console as <strong>{email}</strong>, with the {role} role. Choose a password to
          sign in with from now on. This link works once, until {formatTime(expiresAt)}.
        </p>
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
