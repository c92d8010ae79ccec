/**
 * The Audit page (issue #33, admins only; docs/users-and-roles.md "Audit trail"): every change made through the
 * API, newest first: when, who (a user's email, a personal token's name, the admin token), from which address, in
 * which app, the action and what it was about; a row opens the fields it changed, before -> after, and the whole
 * before and after. Filters (app, who, action, from, to) live in the address, so a filtered view can be linked;
 * older entries a page at a time (the API's `next`); Download CSV of the same filters.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AUDIT_ACTIONS, type AuditEntry, type AuditPage as AuditAnswer } from '../../shared/api/audit';
import { actorInWords } from '../actorInWords';
import { api } from '../api';
import { auditChanges, shortValue } from '../auditChanges';
import { JsonView } from '../components/JsonView';
import { Empty, QueryState } from '../components/QueryState';
import { formatTime } from '../format';
import type { AppRow, ConsoleUser } from '../types';
import { useMe } from '../useMe';

/** Entries asked for per page; the CSV takes the API's most (MAX_AUDIT_PAGE). */
const PAGE = 50;
const CSV_LIMIT = 1000;
const FILTERS = ['apiKey', 'actor', 'action', 'from', 'to'] as const;

// The actions' groups, for the filter's "every guide action" (a prefix ending in '.').
const GROUPS = [...new Set(AUDIT_ACTIONS.map((a) => a.slice(0, a.indexOf('.') + 1)))];

const toInput = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** The query string of the filters in the address (the API's own parameter names), with `extra`. */
function filterQuery(params: URLSearchParams, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  return query.toString();
}

/** The page; for another role than admin, says so instead. */
export function AuditPage() {
  const me = useMe().data;
  if (me && me.role !== 'admin') {
    return (
      <>
        <header className="view-head">
          <h1>Audit</h1>
        </header>
        <Empty>
          <h2>The audit trail needs the admin role</h2>
          <p>You are signed in as {me.role === 'editor' ? 'an editor' : 'a viewer'}: ask an admin to look up a change for you.</p>
        </Empty>
      </>
    );
  }
  return <AuditTrail />;
}

function AuditTrail() {
  const [params, setParams] = useSearchParams();
  const filters = filterQuery(params);
  const entries = useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) =>
      api<AuditAnswer>(`/api/audit?${filterQuery(params, { limit: String(PAGE), ...(pageParam ? { before: String(pageParam) } : {}) })}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
  });
  const set = (name: (typeof FILTERS)[number], value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const rows = entries.data?.pages.flatMap((p) => p.entries) ?? [];
  const filtered = FILTERS.some((name) => params.get(name));
  return (
    <>
      <header className="view-head">
        <h1>Audit</h1>
        <a className="button" href={`/api/audit.csv?${filterQuery(params, { limit: String(CSV_LIMIT) })}`} download="audit.csv">
          Download CSV
        </a>
      </header>
      <AuditFilters params={params} set={set} clear={() => setParams({}, { replace: true })} />
      <QueryState isPending={entries.isPending} error={entries.error}>
        {rows.length === 0 ? (
          <Empty>
            {filtered ? (
              <p>No change matches these filters. Widen the dates, or choose another person or action.</p>
            ) : (
              <>
                <h2>Nothing recorded yet</h2>
                <p>Each change made in the console, the designer or the API (guides, settings, users, tokens, sign-ins) appears here once it is made.</p>
              </>
            )}
          </Empty>
        ) : (
          <>
            <table className="table audit" aria-label="Audit trail">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Who</th>
                  <th>From</th>
                  <th>App</th>
                  <th>Action</th>
                  <th>What</th>
                  <th>
                    <span className="visually-hidden">Changes</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((entry) => (
                  <AuditRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
            <p className="muted small">
              {rows.length} entr{rows.length === 1 ? 'y' : 'ies'} shown, newest first. The CSV holds the newest {CSV_LIMIT.toLocaleString('en')} of these filters.
            </p>
            {entries.hasNextPage && (
              <button type="button" disabled={entries.isFetchingNextPage} onClick={() => void entries.fetchNextPage()}>
                {entries.isFetchingNextPage ? 'Loading…' : 'Older entries'}
              </button>
            )}
          </>
        )}
      </QueryState>
    </>
  );
}

function AuditFilters({ params, set, clear }: { params: URLSearchParams; set(name: (typeof FILTERS)[number], value: string): void; clear(): void }) {
  const apps = useQuery({ queryKey: ['apps'], queryFn: () => api<AppRow[]>('/api/apps') });
  const users = useQuery({ queryKey: ['users'], queryFn: () => api<{ users: ConsoleUser[] }>('/api/users') });
  const apiKey = params.get('apiKey') ?? '';
  const action = params.get('action') ?? '';
  const from = Number(params.get('from')) || 0;
  const to = Number(params.get('to')) || 0;
  const keys = apps.data?.map((a) => a.apiKey) ?? [];
  if (apiKey && !keys.includes(apiKey)) keys.push(apiKey);
  const time = (name: 'from' | 'to') => (e: ChangeEvent<HTMLInputElement>) => {
    const ms = e.target.value ? new Date(e.target.value).getTime() : NaN;
    set(name, Number.isFinite(ms) ? String(ms) : '');
  };
  return (
    <form className="card row audit-filters" role="search" aria-label="Filter the audit trail" onSubmit={(e) => e.preventDefault()}>
      <label className="field">
        <span>App</span>
        <select value={apiKey} onChange={(e) => set('apiKey', e.target.value)}>
          <option value="">Every app</option>
          {keys.map((key) => (
            <option key={key} value={key}>
              {key}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Who</span>
        {/* A user's email, a token's name, a user id or 'admin token', as the API's actor filter takes them. */}
        <input
          type="search"
          list="audit-actors"
          placeholder="Email, token name or admin token"
          defaultValue={params.get('actor') ?? ''}
          key={params.get('actor') ?? ''}
          onBlur={(e) => set('actor', e.target.value.trim())}
          onKeyDown={(e) => e.key === 'Enter' && set('actor', e.currentTarget.value.trim())}
        />
        <datalist id="audit-actors">
          <option value="admin token" />
          {users.data?.users.map((u) => <option key={u.id} value={u.email} />)}
        </datalist>
      </label>
      <label className="field">
        <span>Action</span>
        <select value={action} onChange={(e) => set('action', e.target.value)}>
          <option value="">Every action</option>
          {GROUPS.map((group) => (
            <optgroup key={group} label={group.slice(0, -1)}>
              <option value={group}>every {group}* action</option>
              {AUDIT_ACTIONS.filter((a) => a.startsWith(group)).map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <label className="field">
        <span>From</span>
        <input type="datetime-local" value={from ? toInput(from) : ''} onChange={time('from')} />
      </label>
      <label className="field">
        <span>To</span>
        <input type="datetime-local" value={to ? toInput(to) : ''} onChange={time('to')} />
      </label>
      <button type="button" onClick={clear}>
        Clear filters
      </button>
    </form>
  );
}

/** Where an entry's target leads: a guide's history, for an entry about a guide of an app. */
function targetLink(entry: AuditEntry): string | undefined {
  if (!entry.action.startsWith('guide.') || !entry.apiKey || !entry.target) return undefined;
  return `/apps/${encodeURIComponent(entry.apiKey)}/guides/${encodeURIComponent(entry.target)}?tab=history`;
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const [open, setOpen] = useState(false);
  const hasChanges = entry.before !== undefined || entry.after !== undefined;
  const link = targetLink(entry);
  const version = (entry.after as { version?: unknown } | undefined)?.version;
  const label = `${entry.action} ${entry.target ?? ''} ${formatTime(entry.at)}`.replace(/\s+/g, ' ');
  return (
    <>
      <tr aria-label={label} className={open ? 'selected' : undefined}>
        <td className="nowrap">{formatTime(entry.at)}</td>
        <td>{actorInWords(entry.actor)}</td>
        <td className="mono">{entry.address}</td>
        <td>{entry.apiKey ?? <span className="muted">—</span>}</td>
        <td>
          <span className="type">{entry.action}</span>
        </td>
        <td>
          {link ? (
            <Link to={link} title="The guide's history">
              {entry.target}
              {typeof version === 'number' && ` (version ${version})`}
            </Link>
          ) : (
            (entry.target ?? <span className="muted">—</span>)
          )}
        </td>
        <td>
          {hasChanges && (
            <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} aria-label={`${open ? 'Hide' : 'Show'} changes of ${label}`}>
              {open ? 'Hide' : 'Changes'}
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr className="audit-detail">
          <td colSpan={7}>
            <AuditDetail entry={entry} />
          </td>
        </tr>
      )}
    </>
  );
}

function AuditDetail({ entry }: { entry: AuditEntry }) {
  const changes = auditChanges(entry.before, entry.after);
  const bothSides = entry.before !== undefined && entry.after !== undefined;
  return (
    <div aria-label={`Changes of ${entry.action}`} role="group">
      {bothSides && (
        changes.length === 0 ? (
          <p className="muted">Before and after are the same.</p>
        ) : (
          <table className="table changes" aria-label="Changed fields">
            <thead>
              <tr>
                <th>Field</th>
                <th>Before</th>
                <th>After</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((c) => (
                <tr key={c.path}>
                  <td className="mono">{c.path}</td>
                  <td className="mono before">{shortValue(c.before)}</td>
                  <td className="mono after">{shortValue(c.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      {/* With both sides the changed fields say it; the whole of each is a click away. With one, it is all there is. */}
      <details open={!bothSides}>
        <summary>The whole before and after</summary>
        <div className="grid2">
          <div>
            <h3>Before</h3>
            {entry.before === undefined ? <p className="muted">Nothing: it did not exist, or nothing is kept of it.</p> : <JsonView value={entry.before} label="Before" />}
          </div>
          <div>
            <h3>After</h3>
            {entry.after === undefined ? <p className="muted">Nothing: it was removed, or nothing is kept of it.</p> : <JsonView value={entry.after} label="After" />}
          </div>
        </div>
      </details>
    </div>
  );
}
