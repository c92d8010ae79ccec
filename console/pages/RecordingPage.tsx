/**
 * One session recording replayed (issue #18): rrweb-player (play, pause, speed, skip inactivity, its progress
 * bar) and under it the session's clicks on the same time axis, rage, dead and error clicks marked apart;
 * clicking a mark seeks the replay there. `?t=<epoch ms>` opens it at that moment (from an event or a visitor).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import Player from 'rrweb-player';
import 'rrweb-player/dist/style.css';
import { api, appPath } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { formatCounted, formatDuration, formatTime, pagePath } from '../format';
import type { RecordingDetail, RecordingMark } from '../types';

/** What each mark kind is called in the legend and the marks' titles. */
const KIND_LABELS: Record<RecordingMark['kind'], string> = { click: 'Click', rage: 'Rage click', dead: 'Dead click', error: 'Error click' };

/** The page. */
export function RecordingPage() {
  const { apiKey, recordingId } = useParams() as { apiKey: string; recordingId: string };
  const [params] = useSearchParams();
  const at = Number(params.get('t')) || undefined;
  const recording = useQuery({
    queryKey: ['recording', apiKey, recordingId],
    queryFn: () => api<RecordingDetail>(appPath(apiKey, `/recordings/${encodeURIComponent(recordingId)}`)),
    staleTime: Infinity,
  });
  const r = recording.data;
  const app = `/apps/${encodeURIComponent(apiKey)}`;
  return (
    <>
      <header className="view-head">
        <h1>
          <Link to={`${app}/recordings`} className="crumb">Recordings</Link> / {r ? formatTime(r.start) : recordingId}
        </h1>
      </header>
      <QueryState isPending={recording.isPending} error={recording.error}>
        {r && (
          <>
            <dl className="facts recording-facts">
              <dt>Visitor</dt>
              <dd>
                <Link to={`${app}/visitors/${encodeURIComponent(r.visitorId)}`}>{r.visitorId}</Link>
                {r.accountId && <span className="muted"> · {r.accountId}</span>}
              </dd>
              <dt>Page</dt>
              <dd title={r.url}>{pagePath(r.url)}</dd>
              <dt>Length</dt>
              <dd>
                {formatDuration(r.duration)} · {formatCounted(r.eventCount, 'event')} in {formatCounted(r.chunks, 'chunk')}
              </dd>
            </dl>
            {r.events.length < 2 ? (
              <Empty>
                <p>Nothing to replay yet: no full snapshot of the page has arrived for this recording.</p>
              </Empty>
            ) : (
              <Replay recording={r} at={at} />
            )}
          </>
        )}
      </QueryState>
    </>
  );
}

/** The player and the marks under it. */
function Replay({ recording, at }: { recording: RecordingDetail; at?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const player = useRef<Player | null>(null);
  const [current, setCurrent] = useState(0);
  const start = recording.events[0].timestamp;
  const total = Math.max(1, recording.events[recording.events.length - 1].timestamp - start);

  useEffect(() => {
    const target = box.current;
    if (!target) return;
    const width = Math.min(target.clientWidth || 960, 1200);
    const made = new Player({
      target,
      props: {
        // rrweb-player's types want rrweb's own event union; these are that, as the collector stored them.
        events: recording.events as never,
        width,
        height: Math.round(width * 0.56),
        autoPlay: false,
        speedOption: [1, 2, 4, 8],
        showController: true,
        skipInactive: true,
        mouseTail: false,
      },
    });
    made.addEventListener('ui-update-current-time', (event) => setCurrent(Number((event as { payload: number }).payload)));
    if (at !== undefined && at > start) made.goto(Math.min(at - start, total), false);
    player.current = made;
    return () => {
      player.current = null;
      (made as unknown as { $destroy(): void }).$destroy();
      target.replaceChildren();
    };
  }, [recording, at, start, total]);

  const seek = (mark: RecordingMark) => player.current?.goto(Math.max(0, mark.t - start), false);
  const marks = recording.marks.filter((m) => m.t >= start && m.t <= start + total);
  return (
    <section className="card replay">
      <div ref={box} className="replay-player" data-testid="replay-player" />
      <div className="marks" role="group" aria-label="Clicks of the session">
        <div className="marks-track" data-testid="marks-track">
          <div className="marks-cursor" style={{ left: `${(Math.min(current, total) / total) * 100}%` }} aria-hidden="true" />
          {marks.map((m, i) => (
            <button
              key={`${m.t}-${i}`}
              type="button"
              className={`mark mark-${m.kind}`}
              style={{ left: `${((m.t - start) / total) * 100}%` }}
              title={`${KIND_LABELS[m.kind]} at ${formatDuration(m.t - start)}${m.label ? `: ${m.label}` : ''}`}
              aria-label={`${KIND_LABELS[m.kind]} at ${formatDuration(m.t - start)}${m.label ? `: ${m.label}` : ''}`}
              data-kind={m.kind}
              onClick={() => seek(m)}
            />
          ))}
        </div>
        <ul className="marks-legend">
          {(Object.keys(KIND_LABELS) as Array<RecordingMark['kind']>).map((kind) => (
            <li key={kind}>
              <span className={`mark-dot mark-${kind}`} aria-hidden="true" /> {KIND_LABELS[kind]}s: {marks.filter((m) => m.kind === kind).length}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
