/**
 * Live events: the newest events of the app, and every 2 s those stored since (`after` the last id seen), put
 * on top and highlighted for a moment; filters by type and visitor; a row opens the event's full JSON.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, appPath } from '../api';
import { JsonView } from '../components/JsonView';
import { Empty, QueryState } from '../components/QueryState';
import { elementLabel, formatTime, pagePath } from '../format';
import type { ConsoleEvent, StoredEvent } from '../types';
import { RecordingLink } from './RecordingLink';

/** How often the live view asks for new events: well within the 5 s the console promises. */
export const LIVE_POLL_MS = 2000;
/** Rows kept on screen; older ones fall off the bottom. */
const MAX_ROWS = 500;

type EventList = { events: ConsoleEvent[]; lastId: number };

/** The page. */
export function EventsPage() {
  const apiKey = useParams().apiKey!;
  const [params, setParams] = useSearchParams();
  const type = params.get('type') ?? '';
  const visitor = params.get('visitor') ?? '';
  const [live, setLive] = useState(true);
  const [rows, setRows] = useState<ConsoleEvent[]>([]);
  const [fresh, setFresh] = useState<Set<number>>(new Set());
  const [selected, setSelected] = useState<number | null>(null);
  const lastId = useRef(0);

  const filter = (extra: string) => {
    const q = new URLSearchParams(extra);
    if (type) q.set('type', type);
    if (visitor) q.set('visitorId', visitor);
    return appPath(apiKey, `/events?${q}`);
  };
  const first = useQuery({
    queryKey: ['events', apiKey, type, visitor],
    queryFn: () => api<EventList>(filter('limit=100')),
    staleTime: Infinity,
  });
  useEffect(() => {
    if (!first.data) return;
    setRows(first.data.events);
    setFresh(new Set());
    lastId.current = first.data.lastId;
  }, [first.data]);

  useEffect(() => {
    if (!live || !first.data) return;
    let stopped = false;
    const poll = async () => {
      try {
        const next = await api<EventList>(filter(`after=${lastId.current}&limit=500`));
        if (stopped || next.events.length === 0) return;
        lastId.current = next.lastId;
        const added = [...next.events].reverse();
        setRows((old) => [...added, ...old].slice(0, MAX_ROWS));
        setFresh(new Set(added.map((e) => e.id)));
      } catch {
        // The next poll tries again; a 401 has already sent the visitor to the login page.
      }
    };
    const timer = setInterval(poll, LIVE_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // filter() reads apiKey, type and visitor, listed here.
  }, [live, first.data, apiKey, type, visitor]);

  const setFilter = (name: string, value: string) => {
    const copy = new URLSearchParams(params);
    if (value) copy.set(name, value);
    else copy.delete(name);
    setParams(copy, { replace: true });
  };

  return (
    <>
      <header className="view-head">
        <h1>Live events</h1>
        <div className="toolbar">
          <input aria-label="Filter by type" placeholder="Type (click, load, guideSeen…)" defaultValue={type} onBlur={(e) => setFilter('type', e.target.value.trim())} onKeyDown={(e) => e.key === 'Enter' && setFilter('type', e.currentTarget.value.trim())} />
          <input aria-label="Filter by visitor" placeholder="Visitor id" defaultValue={visitor} onBlur={(e) => setFilter('visitor', e.target.value.trim())} onKeyDown={(e) => e.key === 'Enter' && setFilter('visitor', e.currentTarget.value.trim())} />
          <button type="button" className={live ? 'live on' : 'live'} onClick={() => setLive(!live)} aria-pressed={live}>
            {live ? '● Live' : 'Paused'}
          </button>
          {/* The newest 10,000 events of this filter as a spreadsheet file (the session cookie rides the download). */}
          <a className="button" href={csvHref(apiKey, type, visitor)} download>
            Download CSV
          </a>
        </div>
      </header>
      <QueryState isPending={first.isPending} error={first.error}>
        {rows.length === 0 ? (
          <Empty>
            <h2>Waiting for events…</h2>
            <p>New events appear here within seconds of arriving. Click around a page with the agent for <code>{apiKey}</code>.</p>
          </Empty>
        ) : (
          <table className="table events">
            <thead>
              <tr>
                <th>Time</th>
                <th>Type</th>
                <th>Visitor</th>
                <th>Page</th>
                <th>Element</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id} className={`${fresh.has(e.id) ? 'fresh' : ''} ${selected === e.id ? 'selected' : ''}`} onClick={() => setSelected(e.id)} data-event-id={e.id}>
                  <td className="nowrap">{formatTime(e.time)}</td>
                  <td>
                    <span className={`type type-${e.kind}`}>{e.type}</span>
                    {e.name && <small className="muted"> {e.name}</small>}
                  </td>
                  <td>{e.visitorId ? <Link to={`/apps/${encodeURIComponent(apiKey)}/visitors/${encodeURIComponent(e.visitorId)}`} onClick={(ev) => ev.stopPropagation()}>{e.visitorId}</Link> : '—'}</td>
                  <td className="clip" title={e.url ?? ''}>{pagePath(e.url)}</td>
                  <td className="clip">{elementLabel(e.element)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      {selected !== null && <EventDrawer apiKey={apiKey} id={selected} row={rows.find((e) => e.id === selected)} onClose={() => setSelected(null)} />}
    </>
  );
}

/** The stored event, as the agent sent it, beside the list. */
function EventDrawer({ apiKey, id, row, onClose }: { apiKey: string; id: number; row?: ConsoleEvent; onClose(): void }) {
  const event = useQuery({ queryKey: ['event', apiKey, id], queryFn: () => api<StoredEvent>(appPath(apiKey, `/events/${id}`)) });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside className="drawer" aria-label="Event">
      <header>
        <h2>Event {id}</h2>
        <button type="button" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </header>
      <QueryState isPending={event.isPending} error={event.error}>
        {event.data && (
          <>
            <dl className="facts">
              <dt>Type</dt>
              <dd>{event.data.type}</dd>
              <dt>Received</dt>
              <dd>{formatTime(event.data.receivedAt)}</dd>
              <dt>Beacon</dt>
              <dd>{event.data.kind}{event.data.source ? ` (${event.data.source})` : ''}</dd>
            </dl>
            {row?.visitorId && <RecordingLink apiKey={apiKey} visitorId={row.visitorId} time={row.time} sessionId={sessionOf(event.data.body)} />}
            <JsonView label="Event JSON" value={event.data.body} />
          </>
        )}
      </QueryState>
    </aside>
  );
}

/** The event's `sessionId` as the agent sent it, if any. */
function sessionOf(body: unknown): string | undefined {
  const id = (body as { sessionId?: unknown } | null)?.sessionId;
  return typeof id === 'string' && id ? id : undefined;
}

/** The CSV of the list as filtered (GET /api/apps/{apiKey}/events.csv). */
function csvHref(apiKey: string, type: string, visitor: string): string {
  const q = new URLSearchParams();
  if (type) q.set('type', type);
  if (visitor) q.set('visitorId', visitor);
  const query = q.toString();
  return appPath(apiKey, `/events.csv${query ? `?${query}` : ''}`);
}
