/**
 * One segment (issue #35): its conditions in words, its live count, its members (visitor, account, last seen; each
 * visitor and account linking to its own screen; a page at a time, "More" reads the next with the server's cursor),
 * and the guides whose audience it is. Editors change it (SegmentForm) and delete it: a segment a guide is aimed at
 * is kept, and the server's 409 naming the guides is shown.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, appPath } from '../api';
import { QueryState } from '../components/QueryState';
import { Stat } from '../components/Stat';
import { formatCount, formatTime } from '../format';
import { definitionInWords } from '../segmentWords';
import type { SegmentDetail, SegmentMembers } from '../types';
import { useCan } from '../useMe';
import { SegmentForm } from './SegmentForm';
import { segmentPath } from './SegmentsPage';
import { useSegmentPickers } from './useSegmentPickers';

/** Members read at a time. */
const PAGE = 100;

/** The segment screen. */
export function SegmentPage() {
  const { apiKey, id } = useParams() as { apiKey: string; id: string };
  const navigate = useNavigate();
  const client = useQueryClient();
  const canEdit = useCan('editor');
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const path = appPath(apiKey, `/segments/${encodeURIComponent(id)}`);
  const detail = useQuery({ queryKey: ['segment', apiKey, id], queryFn: () => api<SegmentDetail>(path) });
  const members = useInfiniteQuery({
    queryKey: ['segment', apiKey, id, 'members'],
    queryFn: ({ pageParam }) => api<SegmentMembers>(`${path}/members?limit=${PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const { names } = useSegmentPickers(apiKey);
  const remove = useMutation({
    mutationFn: () => api(path, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['segments', apiKey] });
      navigate(segmentPath(apiKey));
    },
    onSettled: () => setConfirming(false),
  });
  const segment = detail.data;
  const base = `/apps/${encodeURIComponent(apiKey)}`;
  return (
    <>
      <header className="view-head">
        <h1>
          <Link to={segmentPath(apiKey)} className="crumb">
            Segments
          </Link>{' '}
          / {segment?.name ?? id}
        </h1>
        {canEdit && segment && !editing && (
          <div className="toolbar">
            <button type="button" onClick={() => setEditing(true)}>
              Change…
            </button>
            {confirming ? (
              <>
                <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
                  Delete {segment.name}
                </button>
                <button type="button" onClick={() => setConfirming(false)}>
                  Keep it
                </button>
              </>
            ) : (
              <button type="button" className="danger-outline" onClick={() => setConfirming(true)}>
                Delete…
              </button>
            )}
          </div>
        )}
      </header>
      {remove.error && (
        <p className="error" role="alert">
          {remove.error.message}
        </p>
      )}
      <QueryState isPending={detail.isPending} error={detail.error}>
        {segment && (
          <>
            {editing ? (
              <SegmentForm
                apiKey={apiKey}
                segment={segment}
                onDone={() => {
                  setEditing(false);
                  void client.invalidateQueries({ queryKey: ['segment', apiKey, id] });
                }}
              />
            ) : (
              <p data-testid="segment-words">Visitors who {definitionInWords(segment.definition, names)}.</p>
            )}
            <div className="stats">
              <Stat label="Members" value={formatCount(segment.count)} />
              <Stat label="Guides aimed at it" value={formatCount(segment.guides.length)} />
            </div>
            <section className="card">
              <h2>Guides aimed at this segment</h2>
              {segment.guides.length === 0 ? (
                <p className="muted">None: pick this segment as a guide's audience in the guide's editor.</p>
              ) : (
                <ul aria-label="Guides aimed at this segment">
                  {segment.guides.map((g) => (
                    <li key={g.id}>
                      <Link to={`${base}/guides/${encodeURIComponent(g.id)}`}>{g.name}</Link>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section className="card">
              <h2>Members</h2>
              <QueryState isPending={members.isPending} error={members.error}>
                <table className="table" aria-label="Members">
                  <thead>
                    <tr>
                      <th>Visitor</th>
                      <th>Account</th>
                      <th>Last seen</th>
                    </tr>
                  </thead>
                  <tbody>
                    {members.data?.pages.flatMap((page) => page.members).map((m) => (
                      <tr key={m.visitorId}>
                        <td>
                          <Link to={`${base}/visitors/${encodeURIComponent(m.visitorId)}`}>{m.visitorId}</Link>
                        </td>
                        <td>{m.accountId ? <Link to={`${base}/accounts/${encodeURIComponent(m.accountId)}`}>{m.accountId}</Link> : <span className="muted">none</span>}</td>
                        <td>{formatTime(m.lastSeen)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {members.hasNextPage && (
                  <button type="button" disabled={members.isFetchingNextPage} onClick={() => void members.fetchNextPage()}>
                    {members.isFetchingNextPage ? 'Loading…' : 'More'}
                  </button>
                )}
              </QueryState>
            </section>
          </>
        )}
      </QueryState>
    </>
  );
}
