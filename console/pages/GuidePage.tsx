/**
 * One guide: its state and the actions on it (publish, stage, disable, back to draft, edit, duplicate, delete), the funnel
 * (seen -> each step advanced -> completed, dismissed, snoozed), its goal and experiment (GuideGoalPanel), a timeline, poll results and NPS, and health; a
 * History tab (`?tab=history`, issue #33) with its versions, kept even once the guide is deleted.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { OpenOnPage } from './OpenOnPage';
import { audienceSegment, audienceSentence, languagesOfGuide } from '../guideTargeting';
import { useSegmentChoices } from './useSegmentPickers';
import { api, ApiError, appPath } from '../api';
import { QueryState } from '../components/QueryState';
import { RangePicker } from '../components/RangePicker';
import { StateBadge } from '../components/StateBadge';
import { TimeChart } from '../components/TimeChart';
import { fillBuckets } from '../fillBuckets';
import { formatCount, formatTime } from '../format';
import { scheduleInWords } from '../scheduleFields';
import type { GuideBody, GuideState, GuideStats, StoredGuide } from '../types';
import { useRange } from '../useRange';
import { GuideHistory } from './GuideHistory';
import { PollResults } from './PollResults';
import { GuideGoalPanel } from './GuideGoalPanel';
import { useCan } from '../useMe';

const ACTIONS: Array<{ state: GuideState; label: string }> = [
  { state: 'public', label: 'Publish' },
  { state: 'staged', label: 'Stage' },
  { state: 'disabled', label: 'Disable' },
  { state: 'draft', label: 'Back to draft' },
];

/** The page. */
export function GuidePage() {
  const { apiKey, guideId } = useParams() as { apiKey: string; guideId: string };
  const navigate = useNavigate();
  const client = useQueryClient();
  const [range, setRange] = useRange();
  const [confirming, setConfirming] = useState(false);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'history' ? 'history' : 'results';
  const showTab = (next: 'results' | 'history') => {
    const copy = new URLSearchParams(params);
    if (next === 'history') copy.set('tab', 'history');
    else copy.delete('tab');
    setParams(copy, { replace: true });
  };
  // Viewers read a guide and its results; changing it, previewing it or opening the designer is an editor's.
  const canEdit = useCan('editor');
  const path = appPath(apiKey, `/guides/${encodeURIComponent(guideId)}`);
  const guide = useQuery({ queryKey: ['guide', apiKey, guideId], queryFn: () => api<StoredGuide>(path) });
  // A segment audience is named by the segment's name (issue #35).
  const segments = useSegmentChoices(apiKey, guide.data !== undefined && audienceSegment(guide.data.guide) !== undefined);
  const segmentName = (id: string) => segments.data?.find((s) => s.id === id)?.name;
  const stats = useQuery({
    queryKey: ['guide-stats', apiKey, guideId, range.from, range.to],
    queryFn: () => api<GuideStats>(`${path}/stats?from=${range.from}&to=${range.to}`),
  });
  const setState = useMutation({
    mutationFn: (state: GuideState) => api<StoredGuide>(`${path}/state`, { method: 'POST', body: { state } }),
    onSuccess: (stored) => {
      client.setQueryData(['guide', apiKey, guideId], stored);
      client.invalidateQueries({ queryKey: ['guides', apiKey] });
      // A state change keeps a version (issue #33).
      client.invalidateQueries({ queryKey: ['guide-versions', apiKey, guideId] });
    },
  });
  const remove = useMutation({
    mutationFn: () => api(path, { method: 'DELETE' }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: ['guides', apiKey] });
      navigate(`/apps/${encodeURIComponent(apiKey)}/guides`);
    },
  });
  const duplicate = useMutation({
    mutationFn: () => api<StoredGuide>(`${path}/duplicate`, { method: 'POST' }),
    onSuccess: (copy) => {
      client.invalidateQueries({ queryKey: ['guides', apiKey] });
      navigate(`/apps/${encodeURIComponent(apiKey)}/guides/${encodeURIComponent(copy.guide.id)}/edit`);
    },
  });
  const s = stats.data;
  const points = useMemo(
    () => (s?.range ? fillBuckets(s.range, s.timeline, (t) => ({ t, seen: 0, advanced: 0, dismissed: 0, snoozed: 0 })) : (s?.timeline ?? [])),
    [s],
  );
  const times = useMemo(() => points.map((p) => p.t), [points]);
  const series = useMemo(
    () => [
      { label: 'Seen', values: points.map((p) => p.seen), color: '#4f46e5' },
      { label: 'Advanced', values: points.map((p) => p.advanced), color: '#0d9488' },
      { label: 'Dismissed', values: points.map((p) => p.dismissed), color: '#dc2626' },
      { label: 'Snoozed', values: points.map((p) => p.snoozed), color: '#d97706' },
    ],
    [points],
  );
  const top = s ? Math.max(1, ...s.funnel.map((f) => f.visitors)) : 1;
  const schedule = guide.data ? scheduleInWords(guide.data.guide.showsAfter, guide.data.guide.expiresAfter, Date.now(), formatTime) : '';
  // A deleted guide's versions are kept: its history stays readable (and restorable) from an audit entry's link.
  if (tab === 'history' && guide.error instanceof ApiError && guide.error.status === 404) {
    return (
      <>
        <header className="view-head">
          <h1>
            <Link to={`/apps/${encodeURIComponent(apiKey)}/guides`} className="crumb">Guides</Link> / {guideId} <span className="muted">(deleted)</span>
          </h1>
        </header>
        <GuideHistory apiKey={apiKey} guideId={guideId} />
      </>
    );
  }
  return (
    <QueryState isPending={guide.isPending} error={guide.error}>
      {guide.data && (
        <>
          <header className="view-head">
            <h1>
              <Link to={`/apps/${encodeURIComponent(apiKey)}/guides`} className="crumb">Guides</Link> / {guide.data.guide.name ?? guideId}{' '}
              <StateBadge state={guide.data.state} />
            </h1>
            {canEdit && <div className="toolbar">
              {ACTIONS.filter((a) => a.state !== guide.data.state).map((a) => (
                <button key={a.state} type="button" className={a.state === 'public' ? 'primary' : ''} disabled={setState.isPending} onClick={() => setState.mutate(a.state)}>
                  {a.label}
                </button>
              ))}
              <Link className="button" to={`/apps/${encodeURIComponent(apiKey)}/guides/${encodeURIComponent(guideId)}/edit`}>
                Edit
              </Link>
              <Link className="button" to={`/apps/${encodeURIComponent(apiKey)}/guides/${encodeURIComponent(guideId)}/translations`}>
                Translations
              </Link>
              <button type="button" disabled={duplicate.isPending} onClick={() => duplicate.mutate()}>
                Duplicate
              </button>
              {confirming ? (
                <button type="button" className="danger" onClick={() => remove.mutate()}>
                  Really delete?
                </button>
              ) : (
                <button type="button" className="danger-outline" onClick={() => setConfirming(true)}>
                  Delete
                </button>
              )}
            </div>}
          </header>
          {(setState.error || remove.error || duplicate.error) && (
            <div className="error" role="alert">
              {(setState.error ?? remove.error ?? duplicate.error)!.message}
            </div>
          )}
          {canEdit && <OpenOnPage apiKey={apiKey} guideId={guideId} previewPages={guide.data.guide.previewPages} />}
          <div className="tabs" role="tablist" aria-label="Guide">
            <button type="button" role="tab" aria-selected={tab === 'results'} onClick={() => showTab('results')}>
              Results
            </button>
            <button type="button" role="tab" aria-selected={tab === 'history'} onClick={() => showTab('history')}>
              History
            </button>
          </div>
          {tab === 'history' ? (
            <GuideHistory apiKey={apiKey} guideId={guideId} />
          ) : (
            <>
              <div className="toolbar spaced">
                <span className="muted">
                  {guide.data.guide.launchMethod} · {guide.data.guide.steps.length} step{guide.data.guide.steps.length === 1 ? '' : 's'} · updated {formatTime(guide.data.updatedAt)}
                  {typeof guide.data.guide.publishedAt === 'number' && <span data-testid="guide-published"> · published {formatTime(guide.data.guide.publishedAt)}</span>}
                  {schedule && <span data-testid="guide-schedule"> · {schedule}</span>}
                  {' · '}
                  <span data-testid="guide-audience">{audienceSentence(guide.data.guide, segmentName)}</span>
                  {languagesOfGuide(guide.data.guide).length > 1 && <span data-testid="guide-languages"> · in {languagesOfGuide(guide.data.guide).join(', ')}</span>}
                </span>
                <RangePicker range={range} onChange={setRange} />
              </div>
              <QueryState isPending={stats.isPending} error={stats.error}>
                {s && (
                  <>
                    <div className="grid2">
                      <section className="card">
                        <h2>Funnel (visitors)</h2>
                        <ol className="funnel" aria-label="Funnel">
                          {s.funnel.map((f) => (
                            <li key={`${f.label}-${f.stepId ?? ''}`}>
                              <span className="funnel-label">{f.label}</span>
                              <span className="funnel-bar" style={{ width: `${(f.visitors / top) * 100}%` }} />
                              <span className="funnel-value">{formatCount(f.visitors)}</span>
                            </li>
                          ))}
                        </ol>
                        <p className="muted" aria-label="Dismissed and snoozed">
                          Dismissed: <strong data-testid="dismissed">{formatCount(s.dismissed)}</strong> · Snoozed: <strong>{formatCount(s.snoozed)}</strong>
                        </p>
                        {/* guides §4 Guide completion: the last step advanced or dismissed, so it can exceed the last step's advances. */}
                        <p className="muted">Completed: visitors who advanced or dismissed the last step.</p>
                      </section>
                      <section className="card">
                        <h2>Health</h2>
                        <dl className="facts">
                          <dt>Timeouts</dt>
                          <dd>{formatCount(s.health.timeouts)}</dd>
                          <dt>Not seen (timed out before display)</dt>
                          <dd>{formatCount(s.health.notSeen)}</dd>
                        </dl>
                        {s.health.errors.length === 0 ? (
                          <p className="muted">No errors reported by the agent for this guide.</p>
                        ) : (
                          <ul className="errors">
                            {s.health.errors.map((e) => (
                              <li key={e.message}>
                                <strong>{formatCount(e.count)}×</strong> {e.message} <span className="muted">last {formatTime(e.lastSeen)}</span>
                              </li>
                            ))}
                          </ul>
                        )}
                      </section>
                    </div>
                    <GuideGoalPanel apiKey={apiKey} guide={guide.data.guide} range={range} />
                    <section className="card">
                      <h2>Timeline</h2>
                      <TimeChart title="Guide events over time" times={times} series={series} height={200} />
                    </section>
                    <PollResults polls={s.polls} />
                  </>
                )}
              </QueryState>
            </>
          )}
        </>
      )}
    </QueryState>
  );
}

