/**
 * "Your account" (issue #33), for any signed-in user: their name, a new password (the current one asked; the
 * other sessions end), and their personal API tokens for scripts: made with a name (the token shown this once,
 * to copy), listed with when each was last used, revoked. Signed in with the admin token there is no account.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { CopyText } from '../components/CopyText';
import { QueryState } from '../components/QueryState';
import { formatTime } from '../format';
import type { ConsoleUser, PersonalToken } from '../types';
import { useMe } from '../useMe';

/** The page. */
export function YourAccountPage() {
  const me = useMe().data;
  return (
    <>
      <header className="view-head">
        <h1>Your account</h1>
      </header>
      {me?.user ? (
        <>
          <p className="muted">
            {me.user.email}, <strong>{me.user.role}</strong>. Member since {formatTime(me.user.createdAt)}.
          </p>
          <NameForm user={me.user} />
          <PasswordForm />
          <Tokens />
        </>
      ) : (
        <p className="muted">You are signed in with the admin token: it has no account. Sign in with your email to see yours.</p>
      )}
    </>
  );
}

function NameForm({ user }: { user: ConsoleUser }) {
  const client = useQueryClient();
  const [name, setName] = useState(user.name);
  const save = useMutation({
    mutationFn: () => api<ConsoleUser>('/api/me', { method: 'PATCH', body: { name: name.trim() } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['me'] }),
  });
  return (
    <form className="card form" aria-label="Your name" onSubmit={(e) => (e.preventDefault(), save.mutate())}>
      <h2>Name</h2>
      <label className="field">
        <span>Name</span>
        <input autoComplete="name" maxLength={100} value={name} onChange={(e) => (save.reset(), setName(e.target.value))} />
      </label>
      {save.error && <p className="error" role="alert">{save.error.message}</p>}
      <div className="toolbar">
        <button type="submit" disabled={save.isPending || name.trim() === user.name}>
          Save name
        </button>
        {save.isSuccess && <span className="ok-note" role="status">Saved.</span>}
      </div>
    </form>
  );
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const change = useMutation({
    mutationFn: () => api<ConsoleUser>('/api/me', { method: 'PATCH', body: { currentPassword: current, password } }),
    onSuccess: () => {
      setCurrent('');
      setPassword('');
    },
  });
  const short = [...password].length < 12;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate();
  };
  return (
    <form className="card form" aria-label="Change your password" onSubmit={submit}>
      <h2>Password</h2>
      <div className="row">
        <label className="field">
          <span>Current password</span>
          <input type="password" autoComplete="current-password" required value={current} onChange={(e) => (change.reset(), setCurrent(e.target.value))} />
        </label>
        <label className="field">
          <span>New password</span>
          <input type="password" autoComplete="new-password" required aria-describedby="new-password-rule" value={password} onChange={(e) => (change.reset(), setPassword(e.target.value))} />
        </label>
      </div>
      <p id="new-password-rule" className="rule">At least 12 characters. Your other sessions end; your API tokens keep working.</p>
      {change.error && <p className="error" role="alert">{change.error.message}</p>}
      <div className="toolbar">
        <button type="submit" disabled={change.isPending || !current || short}>
          Change password
        </button>
        {change.isSuccess && <span className="ok-note" role="status">Password changed.</span>}
      </div>
    </form>
  );
}

function Tokens() {
  const client = useQueryClient();
  const tokens = useQuery({ queryKey: ['tokens'], queryFn: () => api<{ tokens: PersonalToken[] }>('/api/me/tokens') });
  const [name, setName] = useState('');
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: ['tokens'] });
  const create = useMutation({
    mutationFn: () => api<PersonalToken & { token: string }>('/api/me/tokens', { method: 'POST', body: { name: name.trim() } }),
    onSuccess: (token) => {
      setMade({ name: token.name, token: token.token });
      setName('');
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/api/me/tokens/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return (
    <section className="card form" aria-label="API tokens">
      <h2>API tokens</h2>
      <p className="muted">
        For scripts: send one as <code>Authorization: Bearer …</code>; it acts with your role, until you revoke it.
      </p>
      <form className="row" aria-label="New token" onSubmit={(e) => (e.preventDefault(), create.mutate())}>
        <label className="field">
          <span>Token name (what it is for)</span>
          <input maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <div className="toolbar">
          <button type="submit" disabled={create.isPending || !name.trim()}>
            Create token
          </button>
        </div>
      </form>
      {create.error && <p className="error" role="alert">{create.error.message}</p>}
      {made && (
        <div aria-label="New token">
          <p className="warning" role="status">
            Copy the token &ldquo;{made.name}&rdquo; now: it is shown this once, and Waymark keeps only its hash.
          </p>
          <CopyText value={made.token} label={`Token ${made.name}`} />
        </div>
      )}
      {revoke.error && <p className="error" role="alert">{revoke.error.message}</p>}
      <QueryState isPending={tokens.isPending} error={tokens.error}>
        {tokens.data && tokens.data.tokens.length > 0 ? (
          <table className="table" aria-label="Your tokens">
            <thead>
              <tr>
                <th>Name</th>
                <th>Created</th>
                <th>Last used</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.tokens.map((t) => (
                <tr key={t.id} aria-label={t.name}>
                  <td>{t.name}</td>
                  <td>{formatTime(t.createdAt)}</td>
                  <td>{t.lastUsedAt ? formatTime(t.lastUsedAt) : 'never'}</td>
                  <td>
                    <button type="button" className="danger-outline" disabled={revoke.isPending} onClick={() => revoke.mutate(t.id)} aria-label={`Revoke ${t.name}`}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">No tokens yet.</p>
        )}
      </QueryState>
    </section>
  );
}
