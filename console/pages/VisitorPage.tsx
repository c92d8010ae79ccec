/** One visitor: metadata, the guides they met and where they stand with each, sessions, and the latest events as a timeline. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, appPath } from '../api';
import { JsonView } from '../components/JsonView';
import { QueryState } from '../components/QueryState';
import { elementLabel, formatCounted, formatDuration, formatTime, pagePath } from '../format';
import type { VisitorDetail } from '../types';
import type { VisitorGuideRow } from '../types';

/** The page. */
export function VisitorPage() {
  const { apiKey, visitorId } = useParams() as { apiKey: string; visitorId: string };
  const visitor = useQuery({
    queryKey: ['visitor', apiKey, visitorId],
    queryFn: () => api<VisitorDetail>(appPath(apiKey, `/visitors/${encodeURIComponent(visitorId)}`)),
  });
  const v = visitor.data;
  return (
    <>
      <header className="view-head">
        <h1>
          <Link to={`/apps/${encodeURIComponent(apiKey)}/visitors`} className="crumb">Visitors</Link> / {visitorId}
        </h1>
      </header>
      <QueryState isPending={visitor.isPending} error={visitor.error}>
        {v && (
          <div className="grid2 wide-left">
            <section className="card">
              <h2>Sessions</h2>
              <ol className="timeline" aria-label="Sessions">
                {v.sessions.map((s) => (
                  <li key={s.sessionId}>
                    <strong>{formatTime(s.start)}</strong> · {formatDuration(s.end - s.start)} · {formatCounted(s.events, 'event')} on {formatCounted(s.pages, 'page')}
                    <ul className="session-events">
                      {v.events
                        .filter((e) => e.time >= s.start && e.time <= s.end)
                        .sort((a, b) => b.time - a.time || b.id - a.id)
                        .slice(0, 50)
                        .map((e) => (
                          <li key={e.id}>
                            <span className="nowrap muted">{formatTime(e.time).slice(11)}</span> <span className={`type type-${e.kind}`}>{e.type}</span>{' '}
                            {pagePath(e.url)} {elementLabel(e.element)}
                          </li>
                        ))}
                    </ul>
                  </li>
                ))}
              </ol>
            </section>
            <section className="card">
              <h2>Visitor</h2>
              <dl className="facts">
                <dt>Account</dt>
                <dd>{v.accountId ? <Link to={`/apps/${encodeURIComponent(apiKey)}/accounts/${encodeURIComponent(v.accountId)}`}>{v.accountId}</Link> : '—'}</dd>
                <dt>First seen</dt>
                <dd>{formatTime(v.firstSeen)}</dd>
                <dt>Last seen</dt>
                <dd>{formatTime(v.lastSeen)}</dd>
              </dl>
              <h3>Metadata</h3>
              <JsonView label="Visitor metadata" value={v.metadata ?? {}} />
              <p>
                <Link to={`/apps/${encodeURIComponent(apiKey)}/events?visitor=${encodeURIComponent(visitorId)}`}>Live events of this visitor →</Link>
              </p>
              <p>
                <Link to={`/apps/${encodeURIComponent(apiKey)}/recordings?visitor=${encodeURIComponent(visitorId)}`}>Recordings of this visitor →</Link>
              </p>
              <VisitorGuides apiKey={apiKey} visitorId={visitorId} />
            </section>
          </div>
        )}
      </QueryState>
    </>
  );
}

/** The guides the visitor met: completed, dismissed, snoozed (until), in progress (at which step). */
function VisitorGuides({ apiKey, visitorId }: { apiKey: string; visitorId: string }) {
  const guides = useQuery({
    queryKey: ['visitor-guides', apiKey, visitorId],
    queryFn: () => api<VisitorGuideRow[]>(appPath(apiKey, `/visitors/${encodeURIComponent(visitorId)}/guides`)),
  });
  return (
    <>
      <h3>Guides</h3>
      <QueryState isPending={guides.isPending} error={guides.error}>
        {guides.data?.length === 0 ? (
          <p className="muted">No guide yet.</p>
        ) : (
          <ul className="visitor-guides" aria-label="Guides of this visitor">
            {guides.data?.map((g) => (
              <li key={g.guideId}>
                {g.deleted ? g.name : <Link to={`/apps/${encodeURIComponent(apiKey)}/guides/${encodeURIComponent(g.guideId)}`}>{g.name}</Link>}{' '}
                <span className={`guide-status status-${g.status.replace(' ', '-')}`}>{statusText(g)}</span>
                <div className="muted small">{formatTime(g.at)}{g.deleted ? ' · guide deleted' : ''}</div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}

function statusText(g: VisitorGuideRow): string {
  const at = g.steps > 1 && g.step > 0 ? ` at step ${g.step} of ${g.steps}` : '';
  switch (g.status) {
    case 'completed':
      return 'completed';
    case 'snoozed':
      return `snoozed${at} until ${formatTime(g.snoozedUntil)}`;
    case 'in progress':
      return g.steps > 1 ? `in progress${at}` : 'seen';
    default:
      return `${g.status}${at}`;
  }
}
