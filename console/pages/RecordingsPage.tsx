/** An app's session recordings (issue #18), newest first, of one visitor when filtered. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, appPath } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { formatCount, formatDuration, formatTime, pagePath } from '../format';
import type { RecordingRow } from '../types';
import { useCan } from '../useMe';

/** The page. */
export function RecordingsPage() {
  const apiKey = useParams().apiKey!;
  const [params, setParams] = useSearchParams();
  const visitor = params.get('visitor') ?? '';
  const recordings = useQuery({
    queryKey: ['recordings', apiKey, visitor],
    queryFn: () => api<{ recordings: RecordingRow[] }>(appPath(apiKey, `/recordings?${new URLSearchParams(visitor ? { visitorId: visitor, limit: '100' } : { limit: '100' })}`)),
  });
  const app = `/apps/${encodeURIComponent(apiKey)}`;
  // Recording is turned on in Settings, an admin's page.
  const isAdmin = useCan('admin');
  return (
    <>
      <header className="view-head">
        <h1>Recordings</h1>
        <form
          className="toolbar"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            const next = String(new FormData(e.currentTarget).get('visitor') ?? '').trim();
            setParams(next ? { visitor: next } : {}, { replace: true });
          }}
        >
          <input name="visitor" type="search" aria-label="Filter by visitor" placeholder="Visitor id" defaultValue={visitor} key={visitor} onChange={(e) => e.target.value === '' && setParams({}, { replace: true })} />
          <button type="submit">Filter</button>
        </form>
      </header>
      <QueryState isPending={recordings.isPending} error={recordings.error}>
        {recordings.data?.recordings.length === 0 ? (
          <Empty>
            {visitor ? (
              <p>No recordings of visitor “{visitor}”.</p>
            ) : (
              <>
                <h2>No recordings yet</h2>
                <p>
                  {isAdmin ? (
                    <>
                      Turn recording on in <Link to={`${app}/settings`}>Settings</Link>
                    </>
                  ) : (
                    'An admin turns recording on in Settings'
                  )}
                  ; sessions recorded from then on appear here.
                </p>
              </>
            )}
          </Empty>
        ) : (
          <table className="table recordings">
            <thead>
              <tr>
                <th>Started</th>
                <th>Visitor</th>
                <th>Page</th>
                <th className="num">Duration</th>
                <th className="num">Events</th>
              </tr>
            </thead>
            <tbody>
              {recordings.data?.recordings.map((r) => (
                <tr key={r.id} data-recording-id={r.id}>
                  <td className="nowrap">
                    <Link to={`${app}/recordings/${encodeURIComponent(r.id)}`} aria-label={`Replay the recording of ${r.visitorId} at ${formatTime(r.start)}`}>
                      ▶ {formatTime(r.start)}
                    </Link>
                  </td>
                  <td>
                    <Link to={`${app}/visitors/${encodeURIComponent(r.visitorId)}`}>{r.visitorId}</Link>
                  </td>
                  <td className="clip" title={r.url}>{pagePath(r.url)}</td>
                  <td className="num">{formatDuration(r.duration)}</td>
                  <td className="num">{formatCount(r.eventCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}
