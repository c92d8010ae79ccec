/**
 * A guide's History tab (issue #33, docs/users-and-roles.md "Guide history"): every version the server kept (each
 * save, state change, copy and restore) with who made it, when and its state; two picked to compare, the server's
 * difference between them in sentences; an editor restores one as a new draft version (after a confirmation).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { GuideChange, GuideDiff, GuideRestored, GuideVersionList } from '../../shared/api/guideHistory';
import { actorInWords } from '../actorInWords';
import { api, appPath } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { StateBadge } from '../components/StateBadge';
import { formatTime } from '../format';
import { readTexts, TEXT_SLOTS } from '../guideTemplate';
import { useCan } from '../useMe';

/** Props of {@link GuideHistory}. */
export interface GuideHistoryProps {
  apiKey: string;
  guideId: string;
}

/** The versions, the comparison of two, and the restore. */
export function GuideHistory({ apiKey, guideId }: GuideHistoryProps) {
  const client = useQueryClient();
  // Restoring writes the guide: an editor's. Viewers read the history.
  const canRestore = useCan('editor');
  const base = appPath(apiKey, `/guides/${encodeURIComponent(guideId)}/versions`);
  // Asked again each time the tab opens: a save in the editor or the designer keeps a version this page did not see.
  const versions = useQuery({ queryKey: ['guide-versions', apiKey, guideId], queryFn: () => api<GuideVersionList>(base), staleTime: 0 });
  // The two compared; unset, the one before the newest and the newest.
  const [picked, setPicked] = useState<{ from?: number; to?: number }>({});
  const [confirming, setConfirming] = useState<number | null>(null);
  const list = versions.data?.versions ?? [];
  const to = picked.to ?? list[0]?.version;
  const from = picked.from ?? list[1]?.version;
  const diff = useQuery({
    queryKey: ['guide-diff', apiKey, guideId, from, to],
    queryFn: () => api<GuideDiff>(`${base}/${from}/diff/${to}`),
    enabled: from !== undefined && to !== undefined && from !== to,
  });
  const restore = useMutation({
    mutationFn: (version: number) => api<GuideRestored>(`${base}/${version}/restore`, { method: 'POST' }),
    onSuccess: (restored) => {
      setConfirming(null);
      setPicked({});
      void client.invalidateQueries({ queryKey: ['guide-versions', apiKey, guideId] });
      void client.invalidateQueries({ queryKey: ['guide', apiKey, guideId] });
      void client.invalidateQueries({ queryKey: ['guides', apiKey] });
      void client.invalidateQueries({ queryKey: ['audit'] });
      return restored;
    },
  });
  return (
    <QueryState isPending={versions.isPending} error={versions.error}>
      {list.length === 0 ? (
        <Empty>
          <p>No versions are kept of this guide yet: each save from now on keeps one.</p>
        </Empty>
      ) : (
        <>
          {restore.data && (
            <p className="ok-note" role="status">
              Version {restore.data.restoredFrom} restored as version {restore.data.version}, a draft: publish it when it is ready.
            </p>
          )}
          {restore.error && (
            <p className="error" role="alert">
              {restore.error.message}
            </p>
          )}
          <section className="card" aria-label="Compare versions">
            <h2>What changed</h2>
            <div className="row compare">
              <label className="field">
                <span>From version</span>
                <select value={from ?? ''} onChange={(e) => setPicked({ from: Number(e.target.value), to })}>
                  {list.map((v) => (
                    <option key={v.version} value={v.version}>
                      {v.version} · {formatTime(v.at)}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>To version</span>
                <select value={to ?? ''} onChange={(e) => setPicked({ from, to: Number(e.target.value) })}>
                  {list.map((v) => (
                    <option key={v.version} value={v.version}>
                      {v.version} · {formatTime(v.at)}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            {from === undefined || from === to ? (
              <p className="muted">{list.length === 1 ? 'One version only: nothing to compare yet.' : 'Pick two different versions.'}</p>
            ) : (
              <QueryState isPending={diff.isPending} error={diff.error}>
                {diff.data &&
                  (diff.data.sentences.length === 0 ? (
                    <p className="muted">Versions {diff.data.from} and {diff.data.to} are the same guide in the same state.</p>
                  ) : (
                    <ul className="diff-sentences" aria-label={`Changes from version ${diff.data.from} to ${diff.data.to}`}>
                      {diff.data.changes.map((change, i) => (
                        <li key={i}>
                          {change.sentence}
                          <TextsBefore change={change} />
                        </li>
                      ))}
                    </ul>
                  ))}
              </QueryState>
            )}
          </section>
          <table className="table" aria-label="Versions">
            <thead>
              <tr>
                <th className="num">Version</th>
                <th>When</th>
                <th>Who</th>
                <th>State</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((v) => (
                <tr key={v.version} aria-label={`Version ${v.version}`}>
                  <td className="num">{v.version}</td>
                  <td className="nowrap">{formatTime(v.at)}</td>
                  <td>{actorInWords(v.actor)}</td>
                  <td>
                    <StateBadge state={v.state} />
                  </td>
                  <td>
                    <div className="toolbar">
                      {v.version !== to && (
                        <button type="button" onClick={() => setPicked({ from: v.version, to })} aria-label={`Compare version ${v.version} with version ${to}`}>
                          Compare with {to}
                        </button>
                      )}
                      {canRestore &&
                        (confirming === v.version ? (
                          <>
                            <button type="button" className="primary" disabled={restore.isPending} onClick={() => restore.mutate(v.version)}>
                              Restore version {v.version} as a new draft
                            </button>
                            <button type="button" onClick={() => setConfirming(null)}>
                              Keep
                            </button>
                          </>
                        ) : (
                          <button type="button" onClick={() => setConfirming(v.version)} aria-label={`Restore version ${v.version} as draft…`}>
                            Restore as draft…
                          </button>
                        ))}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </QueryState>
  );
}

/**
 * What a step's building blocks said before and after, for a text change the server words without them (its
 * `domJson`): the title, text and button that differ, so the tab answers "what did it say before".
 */
function TextsBefore({ change }: { change: GuideChange }) {
  if (change.kind !== 'stepText' || change.field !== 'domJson') return null;
  const before = readTexts(change.before);
  const after = readTexts(change.after);
  const differ = TEXT_SLOTS.filter((slot) => (before[slot.key] ?? '') !== (after[slot.key] ?? ''));
  if (differ.length === 0) return null;
  return (
    <ul className="texts-before">
      {differ.map((slot) => (
        <li key={slot.key}>
          {slot.label}: <span className="before">“{before[slot.key] ?? ''}”</span> → <span className="after">“{after[slot.key] ?? ''}”</span>
        </li>
      ))}
    </ul>
  );
}
