/**
 * An app's guides: state, launch method, steps, and seen / completed / dismissed visitors; found by a words search
 * over name and id and a state filter, both kept in the address (a filtered list can be shared or reloaded).
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, appPath } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { StateBadge } from '../components/StateBadge';
import { formatAgo, formatCount } from '../format';
import { scheduleState } from '../scheduleFields';
import type { GuideRow, GuideState } from '../types';
import { useCan } from '../useMe';

const STATES: Array<{ state: GuideState; label: string }> = [
  { state: 'public', label: 'Public' },
  { state: 'staged', label: 'Staged' },
  { state: 'draft', label: 'Draft' },
  { state: 'disabled', label: 'Disabled' },
];

/** A guide's schedule beside its state: only what changes whether visitors see it. */
const SCHEDULE_WORDS: Record<ReturnType<typeof scheduleState>, string> = { none: '', running: '', upcoming: 'scheduled: not started', ended: 'schedule ended' };

const KIND_LABELS: Record<GuideRow['kind'], string> = { guide: '', resourceCenter: 'resource center', module: 'resource center module' };

/** The rows whose name or id has every word of `query` (any case), in `state` when one is given. */
export function findGuides(rows: GuideRow[], query: string, state: string): GuideRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((g) => (!state || g.state === state) && words.every((w) => `${g.name} ${g.id}`.toLowerCase().includes(w)));
}

/** The page. */
export function GuidesPage() {
  const apiKey = useParams().apiKey!;
  const guides = useQuery({ queryKey: ['guides', apiKey], queryFn: () => api<GuideRow[]>(appPath(apiKey, '/guides')) });
  const base = `/apps/${encodeURIComponent(apiKey)}/guides`;
  const canEdit = useCan('editor');
  return (
    <>
      <header className="view-head">
        <h1>Guides</h1>
        {canEdit && (
          <Link to={`${base}/new`} className="button primary">
            New guide
          </Link>
        )}
      </header>
      <QueryState isPending={guides.isPending} error={guides.error}>
        {guides.data?.length === 0 ? (
          <Empty>
            <h2>No guides in this app</h2>
            <p>Create one: it starts as a draft lightbox you can edit, preview on your pages once published, and measure here.</p>
          </Empty>
        ) : (
          <FoundGuides rows={guides.data ?? []} base={base} />
        )}
      </QueryState>
    </>
  );
}

/** The search, the state filter and the guides they keep. */
function FoundGuides({ rows, base }: { rows: GuideRow[]; base: string }) {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const state = params.get('state') ?? '';
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const shown = findGuides(rows, query, state);
  const now = Date.now();
  return (
    <>
      <div className="toolbar spaced">
        <div className="toolbar">
          <input type="search" aria-label="Search guides" placeholder="Search by name or id" value={query} onChange={(e) => set('q', e.target.value)} />
          <select aria-label="State" value={state} onChange={(e) => set('state', e.target.value)}>
            <option value="">Every state</option>
            {STATES.map((s) => (
              <option key={s.state} value={s.state}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <span className="muted" role="status">
          {shown.length === rows.length ? `${rows.length} guide${rows.length === 1 ? '' : 's'}` : `${shown.length} of ${rows.length} guides`}
        </span>
      </div>
      {shown.length === 0 ? (
        <Empty>
          <h2>No guide matches</h2>
          <p>{query ? `No guide has “${query}” in its name or id${state ? ' in that state' : ''}.` : 'No guide is in that state.'}</p>
        </Empty>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Guide</th>
              <th>State</th>
              <th>Launch</th>
              <th className="num">Steps</th>
              <th className="num">Seen</th>
              <th className="num">Completed</th>
              <th className="num">Dismissed</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((g) => {
              const schedule = SCHEDULE_WORDS[scheduleState(g.showsAfter, g.expiresAfter, now)];
              return (
                <tr key={g.id}>
                  <td>
                    <Link to={`${base}/${encodeURIComponent(g.id)}`}>{g.name}</Link>
                    <div className="muted small">
                      {g.id}
                      {KIND_LABELS[g.kind] && ` · ${KIND_LABELS[g.kind]}`}
                    </div>
                  </td>
                  <td>
                    <StateBadge state={g.state} />
                    {schedule && (
                      <div className="muted small" data-testid="guide-row-schedule">
                        {schedule}
                      </div>
                    )}
                  </td>
                  <td>{g.launchMethod}</td>
                  <td className="num">{g.stepCount}</td>
                  <td className="num">{formatCount(g.stats.seen)}</td>
                  <td className="num">{formatCount(g.stats.completed)}</td>
                  <td className="num">{formatCount(g.stats.dismissed)}</td>
                  <td>{formatAgo(g.updatedAt)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}
