/**
 * "Open recording at this moment" (issue #18): for an event of a visitor, the visitor's recording whose span
 * covers the event's time (of the same session when the event names one), linked at that moment; nothing when
 * none does.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, appPath } from '../api';
import type { RecordingRow } from '../types';

/** The recording of `visitorId` (and `sessionId`, when given) that covers `time`, if any. */
export function coveringRecording(recordings: readonly RecordingRow[], time: number, sessionId?: string): RecordingRow | undefined {
  return recordings.find((r) => r.start !== null && r.end !== null && r.start <= time && time <= r.end && (!sessionId || r.sessionId === sessionId));
}

/** The link, once the visitor's recordings say one covers the moment. */
export function RecordingLink({ apiKey, visitorId, time, sessionId }: { apiKey: string; visitorId: string; time: number; sessionId?: string }) {
  const recordings = useQuery({
    queryKey: ['recordings', apiKey, visitorId],
    queryFn: () => api<{ recordings: RecordingRow[] }>(appPath(apiKey, `/recordings?${new URLSearchParams({ visitorId, limit: '500' })}`)),
  });
  const covering = recordings.data && coveringRecording(recordings.data.recordings, time, sessionId);
  if (!covering) return null;
  return (
    <p>
      <Link to={`/apps/${encodeURIComponent(apiKey)}/recordings/${encodeURIComponent(covering.id)}?t=${time}`}>▶ Open recording at this moment</Link>
    </p>
  );
}
