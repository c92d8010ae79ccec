/**
 * Whether an app's installs work, for its product team and integrators: what its agents reported about themselves
 * over a range (events sent against failed beacon attempts and events given up, guide loads and their failures,
 * errors and warnings logged), per agent version, over time, and the errors the agents logged. Figures that signal
 * trouble are drawn as warnings.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { AGENT_VERSION } from '../../shared/constants';
import { MONITOR_FLUSH_MS } from '../../shared/wire/monitorReport';
import { api, appPath } from '../api';
import { Empty, QueryState } from '../components/QueryState';
import { RangePicker } from '../components/RangePicker';
import { Stat } from '../components/Stat';
import { TimeChart } from '../components/TimeChart';
import { fillBuckets } from '../fillBuckets';
import { formatAgo, formatCount, formatCounted, formatTime } from '../format';
import type { HealthAnswer } from '../types';
import { useRange } from '../useRange';

const ZERO_POINT = { eventsSent: 0, beaconsFailed: 0, eventsDropped: 0, guideLoadFailures: 0, errors: 0 };

/** The failures' lines: their own chart, as events sent would flatten them against the axis. */
const FAILURE_LINES = [
  { key: 'beaconsFailed', label: 'Failed beacon attempts', color: '#d97706' },
  { key: 'eventsDropped', label: 'Events given up', color: '#dc2626' },
  { key: 'guideLoadFailures', label: 'Guide load failures', color: '#7c3aed' },
  { key: 'errors', label: 'Errors', color: '#7c2d12' },
] as const;

/** The page. */
export function HealthPage() {
  const apiKey = useParams().apiKey!;
  const [range, setRange] = useRange();
  const health = useQuery({
    queryKey: ['health', apiKey, range.from, range.to],
    queryFn: () => api<HealthAnswer>(appPath(apiKey, `/health?from=${range.from}&to=${range.to}`)),
  });
  const data = health.data;
  const points = useMemo(() => (data ? fillBuckets(data.range, data.series, (t) => ({ t, ...ZERO_POINT })) : []), [data]);
  const times = useMemo(() => points.map((p) => p.t), [points]);
  const sent = useMemo(() => [{ label: 'Events sent', values: points.map((p) => p.eventsSent), color: '#4f46e5' }], [points]);
  const failures = useMemo(() => FAILURE_LINES.map((line) => ({ label: line.label, values: points.map((p) => p[line.key]), color: line.color })), [points]);
  return (
    <>
      <header className="view-head">
        <h1>Agent health</h1>
        <RangePicker range={range} onChange={setRange} />
      </header>
      <QueryState isPending={health.isPending} error={health.error}>
        {data && (
          <>
            {data.totals.reports === 0 ? (
              <NoReports apiKey={apiKey} />
            ) : (
              <>
                <Totals totals={data.totals} />
                <section className="card">
                  <h2>Events sent per {data.range.bucket}</h2>
                  <TimeChart title="Events sent over time" times={times} series={sent} height={180} />
                  <h2>Failures per {data.range.bucket}</h2>
                  <TimeChart title="Failures over time" times={times} series={failures} height={180} />
                </section>
                <Versions versions={data.versions} />
              </>
            )}
            <Errors errors={data.errors} />
          </>
        )}
      </QueryState>
    </>
  );
}

/** The tiles, and what they mean in a sentence. */
function Totals({ totals }: { totals: HealthAnswer['totals'] }) {
  return (
    <>
      <section className="stats dense" aria-label="Agent health totals">
        <Stat label="Sessions reporting" value={formatCount(totals.sessions)} hint="Sessions whose pages sent a health report in the range" />
        <Stat label="Events sent" value={formatCount(totals.eventsSent)} hint="Events the collector accepted" />
        <Stat label="Failed beacon attempts" value={formatCount(totals.beaconsFailed)} warn={totals.beaconsFailed > 0} hint="Each retry counts" />
        <Stat label="Events given up" value={formatCount(totals.eventsDropped)} warn={totals.eventsDropped > 0} hint="After the failure cap, or too large to send: lost" />
        <Stat label="Guide loads" value={formatCount(totals.guideLoads)} hint="guide.json loads answered with a guide list" />
        <Stat label="Guide load failures" value={formatCount(totals.guideLoadFailures)} warn={totals.guideLoadFailures > 0} />
        <Stat label="Errors" value={formatCount(totals.errors)} warn={totals.errors > 0} hint="Messages the agent logged as errors" />
        <Stat label="Warnings" value={formatCount(totals.warnings)} hint="Messages the agent logged as warnings" />
      </section>
      <p className="muted">
        {formatCounted(totals.reports, 'report')} from {formatCounted(totals.visitors, 'visitor')}: {formatCount(totals.beaconsFailed)} failed beacon
        attempts, {formatCount(totals.eventsSent)} events sent, {formatCount(totals.eventsDropped)} events given up. A failed attempt is tried
        again; only events given up are lost.
      </p>
    </>
  );
}

/** The agent versions heard from, the latest first. */
function Versions({ versions }: { versions: HealthAnswer['versions'] }) {
  const figure = (n: number, trouble = false) => <td className={trouble && n > 0 ? 'num warn-figure' : 'num'}>{formatCount(n)}</td>;
  return (
    <section className="card">
      <h2>Agent versions</h2>
      <table className="table" aria-label="Agent versions">
        <thead>
          <tr>
            <th>Version</th>
            <th className="num">Sessions</th>
            <th className="num">Events sent</th>
            <th className="num">Failed attempts</th>
            <th className="num">Given up</th>
            <th className="num">Errors</th>
            <th>Last report</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <td>
                <code>{v.version}</code>
              </td>
              {figure(v.sessions)}
              {figure(v.eventsSent)}
              {figure(v.beaconsFailed, true)}
              {figure(v.eventsDropped, true)}
              {figure(v.errors, true)}
              <td className="nowrap" title={formatTime(v.lastReport)}>
                {formatAgo(v.lastReport)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The error log's messages in the range, the latest first; a stack shows under its first line when opened. */
function Errors({ errors }: { errors: HealthAnswer['errors'] }) {
  return (
    <section className="card">
      <h2>Agent errors</h2>
      {errors.length === 0 ? (
        <p className="muted">No errors logged by the agent in this range.</p>
      ) : (
        <table className="table" aria-label="Agent errors">
          <thead>
            <tr>
              <th>Message</th>
              <th className="num">Times</th>
              <th>Last seen</th>
              <th>Version</th>
            </tr>
          </thead>
          <tbody>
            {errors.map((e) => {
              const [first, ...rest] = e.message.split('\n');
              return (
                <tr key={e.message}>
                  <td className="error-message">
                    {rest.length ? (
                      <details>
                        <summary className="mono">{first}</summary>
                        <pre>{rest.join('\n')}</pre>
                      </details>
                    ) : (
                      <span className="mono">{first}</span>
                    )}
                  </td>
                  <td className="num warn-figure">{formatCount(e.count)}</td>
                  <td className="nowrap">{formatTime(e.lastSeen)}</td>
                  <td>{e.version ? <code>{e.version}</code> : <span className="muted">—</span>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** No report in the range: when reports come, and where to install or update the agent. */
function NoReports({ apiKey }: { apiKey: string }) {
  return (
    <Empty>
      <h2>No health report in this range</h2>
      <p>
        Agents from version <code>{AGENT_VERSION}</code> on report on themselves every {MONITOR_FLUSH_MS / 60_000} minutes while a page is
        open, and when a page is hidden (its tab switched or closed). Pages of <code>{apiKey}</code> running an older agent, or none, send no
        report.
      </p>
      <p>
        <Link to={`/apps/${encodeURIComponent(apiKey)}/install`}>Install or update the agent</Link>, load a page, then come back in a few
        minutes or pick a longer range.
      </p>
    </Empty>
  );
}
