/**
 * An app's Retention (issue #35 "Funnels, paths, retention"): visitors (or accounts) grouped by the UTC week of their
 * first use (of the app, or of a feature, a page, a track event), and the share of each cohort back in each week
 * after it (any event, or one of those), as a shaded table (RetentionTable) and a curve of all cohorts together
 * (TimeChart over weeks), or, while no week after week 0 is over for any cohort, a note saying until when. The question is a form (react-hook-form), asked when applied; the range picker asks at
 * once. Cohorts start on Monday: the range's start is taken back to its week's Monday.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { WEEK_MS, weekOf } from '../../shared/analytics/utcWeek';
import { api, ApiError, appPath } from '../api';
import { formatPercent } from '../format';
import { Field } from '../components/Field';
import { Empty, QueryState } from '../components/QueryState';
import { RangePicker } from '../components/RangePicker';
import { TimeChart } from '../components/TimeChart';
import type { AnalyticsUnit, Feature, Page, RetentionAnswer, RetentionQuestion } from '../types';
import { useRange } from '../useRange';
import { useDefinitions } from './RuleActions';
import { RetentionTable, weekLabel } from './RetentionTable';
import { ANY_STEP, checkDraft, stepOfDraft, StepPicker, type StepDraft, type StepKind } from './StepPicker';

/** The form's fields. */
interface RetentionFields {
  start: StepDraft;
  back: StepDraft;
  weeks: number;
  by: AnalyticsUnit;
}

const DEFAULTS: RetentionFields = { start: ANY_STEP, back: ANY_STEP, weeks: 8, by: 'visitor' };
const KINDS: readonly StepKind[] = ['any', 'feature', 'page', 'track'];
/** The server's field names (400 `field`, up to the first dot) -> the form's. */
const FORM_FIELD: Record<string, keyof RetentionFields> = { start: 'start', return: 'back', weeks: 'weeks', by: 'by' };

/** The Retention screen. */
export function RetentionPage() {
  const apiKey = useParams().apiKey!;
  const [range, setRange] = useRange(undefined, '90d');
  const features = useDefinitions<Feature>(apiKey, 'features');
  const pages = useDefinitions<Page>(apiKey, 'pages');
  const form = useForm<RetentionFields>({ defaultValues: DEFAULTS });
  const [asked, setAsked] = useState<RetentionFields>(DEFAULTS);
  const from = weekOf(range.from);
  const question: RetentionQuestion = {
    from,
    to: range.to,
    weeks: asked.weeks,
    by: asked.by,
    ...(asked.start.kind === 'any' ? {} : { start: stepOfDraft(asked.start) }),
    ...(asked.back.kind === 'any' ? {} : { return: stepOfDraft(asked.back) }),
  };
  const answer = useQuery({
    queryKey: ['retention', apiKey, question],
    queryFn: () => api<RetentionAnswer>(appPath(apiKey, '/retention'), { method: 'POST', body: question }),
  });
  // The server's 400 for a field of the form is shown beside it; others above the table.
  const error = answer.error;
  const formField = error instanceof ApiError && error.field ? FORM_FIELD[error.field.split('.')[0]!] : undefined;
  const errors = form.formState.errors;
  const fieldError = (name: keyof RetentionFields) => errors[name]?.message ?? (formField === name ? error?.message : undefined);
  const stepPicker = (name: 'start' | 'back', label: string, hint: string) => (
    <Controller
      control={form.control}
      name={name}
      rules={{ validate: checkDraft }}
      render={({ field }) => (
        <StepPicker
          label={label}
          value={field.value}
          onChange={field.onChange}
          kinds={KINDS}
          features={features.data ?? []}
          pages={pages.data ?? []}
          error={fieldError(name)}
          hint={hint}
        />
      )}
    />
  );
  return (
    <>
      <header className="view-head">
        <h1>Retention</h1>
        <RangePicker range={range} onChange={setRange} />
      </header>
      <p className="muted">
        Cohorts of the weeks (Monday to Sunday, UTC) from {weekLabel(from)}: who was first seen each week, over all stored events, and the share
        of them back 1, 2, 3… weeks after their own first use.
      </p>
      <form className="card form" aria-label="Retention question" onSubmit={form.handleSubmit((fields) => setAsked({ ...fields, weeks: Number(fields.weeks) }))}>
        <div className="row">
          {stepPicker('start', 'First use', 'Their earliest event of this kind starts their cohort')}
          {stepPicker('back', 'Coming back', 'What counts as back in a week')}
          <Field label="Weeks" error={fieldError('weeks')}>
            <select {...form.register('weeks', { valueAsNumber: true })}>
              {Array.from({ length: 12 }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Count" error={fieldError('by')}>
            <select {...form.register('by')}>
              <option value="visitor">Visitors</option>
              <option value="account">Accounts</option>
            </select>
          </Field>
          <button type="submit" className="primary">
            Show retention
          </button>
        </div>
      </form>
      {error && !formField && (
        <div className="error" role="alert">
          {error.message}
        </div>
      )}
      <QueryState isPending={answer.isPending} error={null}>
        {answer.data && (answer.data.cohorts.length === 0 ? (
          <Empty>
            <h2>No cohort in these weeks</h2>
            <p>No {answer.data.by} had a first use in this range. Widen the range, or pick another first use.</p>
          </Empty>
        ) : (
          <RetentionResult answer={answer.data} />
        ))}
      </QueryState>
    </>
  );
}

/** The curve's y values are percentages, 0 to 100 (stable references: the chart redraws when a prop changes). */
const SHARE_RANGE: [number, number] = [0, 100];
const formatShare = (value: number) => formatPercent(value / 100);

/** The table and the curve of an answer with cohorts. */
function RetentionResult({ answer }: { answer: RetentionAnswer }) {
  const times = useMemo(() => answer.overall.map((o) => o.week), [answer]);
  const series = useMemo(
    () => [{ label: 'Back, all cohorts', values: answer.overall.map((o) => (o.share === null ? null : Math.round(o.share * 1000) / 10)), color: '#4f46e5' }],
    [answer],
  );
  // Week 0 is each cohort itself (100%): with no later week over (a walk of today, a new app) the curve would be one
  // dot, and the blank cells would not say why or until when.
  const anyWeekOver = answer.overall.some((o) => o.week > 0 && o.share !== null);
  const oldest = answer.cohorts[0]!.week;
  return (
    <>
      <section className="card retention-wrap" aria-label="Cohorts">
        <RetentionTable answer={answer} />
      </section>
      {anyWeekOver ? (
        <section className="card">
          <h2>Share back, weeks after first use (all cohorts whose week is over)</h2>
          <TimeChart title="Retention curve" times={times} series={series} time={false} formatValue={formatShare} xLabel="Week" yRange={SHARE_RANGE} />
        </section>
      ) : (
        <section className="card" role="status" aria-label="No week over yet">
          <h2>No week after week 0 is over yet</h2>
          <p className="muted">
            A {answer.by}&apos;s week 1 is the week after their first use, counted once it is over: two weeks after that first use. Until then
            week 0 is each cohort itself (100%) and there is no curve to draw. The oldest cohort here, {weekLabel(oldest)}, has week 1 over for all
            of its {answer.by === 'visitor' ? 'visitors' : 'accounts'} by {weekLabel(oldest + 3 * WEEK_MS)}.
          </p>
        </section>
      )}
    </>
  );
}
