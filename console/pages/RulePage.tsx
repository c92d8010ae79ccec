/**
 * One feature or page (issue #35): what it matches, its visitors, accounts and events over the range picked, and
 * their series per UTC day on the overview's chart; editors rename and delete it here too, and set a feature's event
 * properties (EventPropertiesEditor).
 */
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { BackfillNote } from '../components/BackfillNote';
import { EventPropertiesEditor } from './EventPropertiesEditor';
import { QueryState } from '../components/QueryState';
import { RangePicker } from '../components/RangePicker';
import { Stat } from '../components/Stat';
import { TimeChart } from '../components/TimeChart';
import { fillBuckets } from '../fillBuckets';
import { formatCount, formatTime } from '../format';
import type { Page, UseDay } from '../types';
import { useCan } from '../useMe';
import { useRange } from '../useRange';
import { consolePath, KINDS, ruleText, RuleActions, useDefinitions, useDefinitionUse, type RuleKind } from './RuleActions';

/** One feature. */
export function FeaturePage() {
  return <RulePage kind="features" />;
}

/** One page. */
export function PagePage() {
  return <RulePage kind="pages" />;
}

function RulePage({ kind }: { kind: RuleKind }) {
  const { apiKey, id } = useParams() as { apiKey: string; id: string };
  const navigate = useNavigate();
  const [range, setRange] = useRange();
  const canEdit = useCan('editor');
  const words = KINDS[kind];
  const detail = useDefinitionUse(apiKey, kind, id, range);
  const pages = useDefinitions<Page>(apiKey, 'pages', kind === 'features');
  const data = detail.data;
  const points = useMemo(
    () => (data ? fillBuckets(data.range ?? { from: range.from, to: range.to, bucket: 'day' }, data.series, (t): UseDay => ({ t, events: 0, visitors: 0, accounts: 0 })) : []),
    [data, range.from, range.to],
  );
  const times = useMemo(() => points.map((p) => p.t), [points]);
  const series = useMemo(
    () => [
      { label: kind === 'features' ? 'Clicks' : 'Loads', values: points.map((p) => p.events), color: '#4f46e5' },
      { label: 'Visitors', values: points.map((p) => p.visitors), color: '#0d9488' },
      { label: 'Accounts', values: points.map((p) => p.accounts), color: '#d97706' },
    ],
    [points, kind],
  );
  const page = data && 'selector' in data.rule ? data.rule.page : undefined;
  return (
    <>
      <header className="view-head">
        <h1>
          <Link to={consolePath(apiKey, kind)} className="crumb">
            {words.title}
          </Link>{' '}
          / {data?.name ?? id}
        </h1>
        <RangePicker range={range} onChange={setRange} />
      </header>
      <QueryState isPending={detail.isPending} error={detail.error}>
        {data && (
          <>
            <section className="card" aria-label={`The ${words.one}`}>
              <div className="toolbar spaced">
                <dl className="facts">
                  <dt>{words.ruleLabel}</dt>
                  <dd>
                    <code>{ruleText(data)}</code>
                  </dd>
                  {kind === 'features' && (
                    <>
                      <dt>Page</dt>
                      <dd>
                        {page === undefined ? (
                          'every page'
                        ) : (
                          <Link to={consolePath(apiKey, 'pages', page)}>{pages.data?.find((p) => p.id === page)?.name ?? page}</Link>
                        )}
                      </dd>
                    </>
                  )}
                  <dt>Created</dt>
                  <dd>{formatTime(data.createdAt)}</dd>
                  <dt>Changed</dt>
                  <dd>{formatTime(data.updatedAt)}</dd>
                </dl>
                {canEdit && <RuleActions apiKey={apiKey} kind={kind} definition={data} onDeleted={() => navigate(consolePath(apiKey, kind))} />}
              </div>
            </section>
            <BackfillNote backfill={data.backfill} />
            <section className="stats" aria-label="Totals">
              <Stat label="Visitors" value={formatCount(data.visitors)} />
              <Stat label="Accounts" value={formatCount(data.accounts)} />
              <Stat label={kind === 'features' ? 'Clicks' : 'Page loads'} value={formatCount(data.events)} />
            </section>
            <section className="card">
              <h2>
                {kind === 'features' ? 'Clicks' : 'Page loads'}, visitors and accounts per day (UTC)
              </h2>
              <TimeChart title={`${data.name} per day`} times={times} series={series} />
            </section>
            {'selector' in data.rule && (
              <EventPropertiesEditor apiKey={apiKey} featureId={data.id} properties={('eventProperties' in data && data.eventProperties) || []} canEdit={canEdit} />
            )}
          </>
        )}
      </QueryState>
    </>
  );
}
