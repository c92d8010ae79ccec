/**
 * An app's overview over a date range: totals, events and active visitors over time, top pages and features,
 * frustration (rage, dead, error clicks, u-turns), channels and sessions, and the guides most seen in the range.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { api, appPath } from '../api';
import { BarList } from '../components/BarList';
import { GuideFigures } from '../components/GuideFigures';
import { QueryState } from '../components/QueryState';
import { RangePicker } from '../components/RangePicker';
import { Stat } from '../components/Stat';
import { TimeChart } from '../components/TimeChart';
import { fillBuckets } from '../fillBuckets';
import { formatCount, formatCounted, formatDuration, pagePath } from '../format';
import type { Overview } from '../types';
import { useRange } from '../useRange';

/** The page. */
export function OverviewPage() {
  const apiKey = useParams().apiKey!;
  const [range, setRange] = useRange();
  const overview = useQuery({
    queryKey: ['overview', apiKey, range.from, range.to],
    queryFn: () => api<Overview>(appPath(apiKey, `/overview?from=${range.from}&to=${range.to}`)),
  });
  const data = overview.data;
  const points = useMemo(() => (data ? fillBuckets(data.range, data.series, (t) => ({ t, events: 0, visitors: 0 })) : []), [data]);
  const series = useMemo(
    () => [
      { label: 'Events', values: points.map((p) => p.events), color: '#4f46e5' },
      { label: 'Active visitors', values: points.map((p) => p.visitors), color: '#0d9488' },
    ],
    [points],
  );
  const times = useMemo(() => points.map((p) => p.t), [points]);
  return (
    <>
      <header className="view-head">
        <h1>{apiKey}</h1>
        <RangePicker range={range} onChange={setRange} />
      </header>
      <QueryState isPending={overview.isPending} error={overview.error}>
        {data && (
          <>
            <section className="stats" aria-label="Totals">
              <Stat label="Events" value={formatCount(data.totals.events)} />
              <Stat label="Visitors" value={formatCount(data.totals.visitors)} />
              <Stat label="Accounts" value={formatCount(data.totals.accounts)} />
              <Stat label="Sessions" value={formatCount(data.totals.sessions)} />
              <Stat label="Median session" value={formatDuration(data.sessions.medianDurationMs)} />
              <Stat label="Events per session" value={String(data.sessions.meanEvents)} />
            </section>
            <section className="card">
              <h2>Events and active visitors per {data.range.bucket}</h2>
              <TimeChart title="Events and active visitors over time" times={times} series={series} />
            </section>
            <div className="grid2">
              <section className="card">
                <h2>Top pages</h2>
                <BarList
                  title="Top pages"
                  empty="No page views in this range."
                  rows={data.topPages.map((p) => ({ key: p.url, label: pagePath(p.url), value: p.events, note: formatCounted(p.visitors, 'visitor') }))}
                />
              </section>
              <section className="card">
                <h2>Top features (clicked elements)</h2>
                <BarList
                  title="Top features"
                  empty="No clicks in this range."
                  rows={data.topFeatures.map((f) => ({ key: `${f.tag}#${f.id}#${f.text}`, label: f.label, value: f.clicks }))}
                />
              </section>
              <section className="card">
                <h2>Frustration</h2>
                <div className="stats small" aria-label="Frustration">
                  <Stat label="Rage clicks" value={formatCount(data.frustration.rageClicks)} />
                  <Stat label="Dead clicks" value={formatCount(data.frustration.deadClicks)} />
                  <Stat label="Error clicks" value={formatCount(data.frustration.errorClicks)} />
                  <Stat label="U-turns" value={formatCount(data.frustration.uTurns)} />
                </div>
              </section>
              <section className="card">
                <h2>Channels (sessions)</h2>
                <BarList
                  title="Channels"
                  empty="No sessions in this range."
                  rows={data.channels.map((c) => ({ key: c.channel, label: c.channel, value: c.sessions }))}
                />
              </section>
            </div>
            <GuideFigures apiKey={apiKey} query={`from=${range.from}&to=${range.to}`} title="Guides seen in this range" empty="No visitor saw a guide in this range." />
          </>
        )}
      </QueryState>
    </>
  );
}
