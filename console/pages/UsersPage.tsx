/**
 * The Users page (issue #33, admins only): who may use the console, with their role, when they joined and last
 * signed in; invite someone (the invitation link shown to copy and hand on), change a role, remove a user (after a
 * confirmation), give a fresh link (a lost link, a forgotten password). The server's refusals are shown as it words
 * them, the last admin's 409 beside the user it is about.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, ApiError } from '../api';
import { CopyText } from '../components/CopyText';
import { QueryState } from '../components/QueryState';
import { formatTime } from '../format';
import type { ConsoleUser, Invitation, Role } from '../types';
import { useMe } from '../useMe';

const ROLES: Role[] = ['viewer', 'editor', 'admin'];

/** A link to hand on, and whom it is for. */
interface IssuedLink extends Invitation {
  email: string;
}

/** The page. */
export function UsersPage() {
  const users = useQuery({ queryKey: ['users'], queryFn: () => api<{ users: ConsoleUser[] }>('/api/users') });
  const [link, setLink] = useState<IssuedLink | null>(null);
  return (
    <>
      <header className="view-head">
        <h1>Users</h1>
      </header>
      <InviteForm onInvited={setLink} />
      {link && <LinkToHandOn link={link} />}
      <QueryState isPending={users.isPending} error={users.error}>
        <table className="table" aria-label="Users">
          <thead>
            <tr>
              <th>Email</th>
              <th>Name</th>
              <th>Role</th>
              <th>Created</th>
              <th>Last sign-in</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data?.users.map((user) => <UserRow key={user.id} user={user} onLink={setLink} />)}
          </tbody>
        </table>
      </QueryState>
    </>
  );
}

function LinkToHandOn({ link }: { link: IssuedLink }) {
  return (
    <section className="card form" aria-label="Invitation link">
      <h2>Invitation link for {link.email}</h2>
      <p className="muted">
        Send it to them yourself (Waymark sends no email). It works once, until {formatTime(link.expiresAt)}; anyone holding it can
        set the password.
      </p>
      <CopyText value={link.invitationUrl} label={`Invitation link for ${link.email}`} />
    </section>
  );
}

interface InviteFields {
  email: string;
  role: Role;
  name: string;
}

function InviteForm({ onInvited }: { onInvited(link: IssuedLink): void }) {
  const client = useQueryClient();
  const form = useForm<InviteFields>({ defaultValues: { email: '', role: 'editor', name: '' } });
  const invite = useMutation({
    mutationFn: (body: InviteFields) =>
      api<ConsoleUser & { invitationUrl: string; invitationExpiresAt: number }>('/api/users', {
        method: 'POST',
        body: { email: body.email.trim(), role: body.role, ...(body.name.trim() ? { name: body.name.trim() } : {}) },
      }),
    onSuccess: (made) => {
      onInvited({ email: made.email, invitationUrl: made.invitationUrl, expiresAt: made.invitationExpiresAt });
      form.reset({ email: '', role: form.getValues('role'), name: '' });
      void client.invalidateQueries({ queryKey: ['users'] });
    },
  });
  return (
    <form className="card form" aria-label="Invite someone" onSubmit={form.handleSubmit((v) => invite.mutate(v))}>
      <h2>Invite someone</h2>
      <div className="row">
        <label className="field">
          <span>Email</span>
          <input type="email" required autoComplete="off" {...form.register('email', { required: true })} />
        </label>
        <label className="field">
          <span>Role</span>
          <select {...form.register('role')}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Name (optional)</span>
          <input autoComplete="off" maxLength={100} {...form.register('name')} />
        </label>
      </div>
      <p className="muted">Viewers read; editors also write guides, themes and translations; admins also manage users and settings.</p>
      {invite.error && (
        <p className="error" role="alert">
          {invite.error.message}
        </p>
      )}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={invite.isPending}>
          {invite.isPending ? 'Inviting…' : 'Invite'}
        </button>
      </div>
    </form>
  );
}

function UserRow({ user, onLink }: { user: ConsoleUser; onLink(link: IssuedLink): void }) {
  const client = useQueryClient();
  const me = useMe().data;
  const [confirming, setConfirming] = useState(false);
  // The refusal of the last action on this row, whichever it was.
  const [error, setError] = useState<Error | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: ['users'] });
  const outcome = { onMutate: () => setError(null), onError: setError };
  const changeRole = useMutation({
    mutationFn: (role: Role) => api<ConsoleUser>(`/api/users/${user.id}`, { method: 'PATCH', body: { role } }),
    ...outcome,
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api(`/api/users/${user.id}`, { method: 'DELETE' }),
    ...outcome,
    onSuccess: refresh,
    onSettled: () => setConfirming(false),
  });
  const reinvite = useMutation({
    mutationFn: () => api<Invitation>(`/api/users/${user.id}/invitation`, { method: 'POST' }),
    ...outcome,
    onSuccess: (link) => onLink({ ...link, email: user.email }),
  });
  const isMe = me?.user?.id === user.id;
  return (
    <tr aria-label={user.email}>
      <td>
        {user.email}
        {isMe && <span className="muted"> (you)</span>}
        {error && (
          <p className={error instanceof ApiError && error.status === 409 ? 'error last-admin' : 'error'} role="alert">
            {error.message}
          </p>
        )}
      </td>
      <td>{user.name || '—'}</td>
      <td>
        <select
          aria-label={`Role of ${user.email}`}
          value={user.role}
          disabled={changeRole.isPending}
          onChange={(e) => changeRole.mutate(e.target.value as Role)}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </td>
      <td>{formatTime(user.createdAt)}</td>
      <td>{user.status === 'invited' ? <span className="muted">invited, not yet signed in</span> : formatTime(user.lastSignInAt)}</td>
      <td>
        <div className="toolbar">
          <button type="button" disabled={reinvite.isPending} onClick={() => reinvite.mutate()} aria-label={`New invitation link for ${user.email}`}>
            New link
          </button>
          {confirming ? (
            <>
              <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
                Remove {user.email}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <button type="button" className="danger-outline" onClick={() => setConfirming(true)} aria-label={`Remove ${user.email}…`}>
              Remove…
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}
