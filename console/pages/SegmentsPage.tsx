/**
 * An app's Segments (issue #35 "Segments, and guides that target them"): each saved filter of visitors with its
 * conditions in words and its live count of members (metadata and behaviour over everything stored). Editors add one
 * (SegmentForm); a segment's own screen lists its members and the guides aimed at it.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, appPath } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { formatCount } from '../format';
import { definitionInWords } from '../segmentWords';
import type { SegmentRow } from '../types';
import { useCan } from '../useMe';
import { SegmentForm } from './SegmentForm';
import { useSegmentPickers } from './useSegmentPickers';

/** The console path of the Segments screen, or of one segment. */
export function segmentPath(apiKey: string, id?: string): string {
  return `/apps/${encodeURIComponent(apiKey)}/segments${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;
}

/** The Segments screen. */
export function SegmentsPage() {
  const apiKey = useParams().apiKey!;
  const navigate = useNavigate();
  const canEdit = useCan('editor');
  const [adding, setAdding] = useState(false);
  const list = useQuery({ queryKey: ['segments', apiKey], queryFn: () => api<SegmentRow[]>(appPath(apiKey, '/segments')) });
  const { names } = useSegmentPickers(apiKey);
  return (
    <>
      <header className="view-head">
        <h1>Segments</h1>
        {canEdit && !adding && (
          <div className="toolbar">
            <button type="button" className="primary" onClick={() => setAdding(true)}>
              New segment
            </button>
          </div>
        )}
      </header>
      <p className="muted">
        A segment is a saved filter of visitors: their metadata and what they did (features used, pages visited, track events, guides seen), over
        everything stored. A guide's audience can be a segment.
      </p>
      {canEdit && adding && <SegmentForm apiKey={apiKey} onDone={(id) => (id ? navigate(segmentPath(apiKey, id)) : setAdding(false))} />}
      <QueryState isPending={list.isPending} error={list.error}>
        {list.data?.length === 0 ? (
          <Empty>
            <h2>No segments in this app yet</h2>
            <p>{canEdit ? 'Add one with New segment: its members are counted over every event already stored.' : 'An editor can add them.'}</p>
          </Empty>
        ) : (
          <table className="table" aria-label="Segments">
            <thead>
              <tr>
                <th>Name</th>
                <th>Visitors who</th>
                <th className="num">Members</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.map((segment) => (
                <tr key={segment.id} aria-label={segment.name}>
                  <td>
                    <Link to={segmentPath(apiKey, segment.id)}>{segment.name}</Link>
                  </td>
                  <td>{definitionInWords(segment.definition, names)}</td>
                  <td className="num">{formatCount(segment.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}
