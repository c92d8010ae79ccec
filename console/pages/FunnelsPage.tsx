/**
 * An app's Funnels (issue #35 "Funnels, paths, retention"): 2 to 10 ordered steps (a feature, a page, a track event,
 * a guide seen or completed; react-hook-form's field array of StepPickers), a conversion window, visitors or
 * accounts, an optional breakdown field; asked of `POST .../funnels` when applied (the range picker asks again at
 * once) and drawn by FunnelResult: a bar per step, the breakdown, the dropped visitors as links.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { api, ApiError, appPath } from '../api';
import { Field } from '../components/Field';
import { QueryState } from '../components/QueryState';
import { RangePicker } from '../components/RangePicker';
import type { AnalyticsStep, AnalyticsUnit, Feature, FunnelAnswer, FunnelQuestionBody, GuideRow, Page } from '../types';
import { useRange } from '../useRange';
import { FunnelResult } from './FunnelResult';
import { useDefinitions } from './RuleActions';
import { checkDraft, stepOfDraft, StepPicker, type StepDraft, type StepKind } from './StepPicker';

/** The form's fields. */
interface FunnelFields {
  steps: StepDraft[];
  windowDays: number;
  by: AnalyticsUnit;
  breakdown: string;
}

const KINDS: readonly StepKind[] = ['feature', 'page', 'track', 'guide'];
const MIN_STEPS = 2;
const MAX_STEPS = 10;
const DAY_MS = 86_400_000;
const DEFAULTS: FunnelFields = { steps: [{ kind: 'page', value: '' }, { kind: 'feature', value: '' }], windowDays: 7, by: 'visitor', breakdown: '' };

/** The form's field of the server's 400 `field` (`steps[2].feature` -> `steps.2`), when it is one. */
function formFieldOf(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const step = /^steps\[(\d+)\]/.exec(field);
  if (step) return `steps.${step[1]}`;
  return { windowMs: 'windowDays', by: 'by', breakdown: 'breakdown' }[field];
}

/** The Funnels screen. */
export function FunnelsPage() {
  const apiKey = useParams().apiKey!;
  const [range, setRange] = useRange();
  const features = useDefinitions<Feature>(apiKey, 'features');
  const pages = useDefinitions<Page>(apiKey, 'pages');
  const guides = useQuery({ queryKey: ['guides', apiKey], queryFn: () => api<GuideRow[]>(appPath(apiKey, '/guides')) });
  const form = useForm<FunnelFields>({ defaultValues: DEFAULTS });
  const steps = useFieldArray({ control: form.control, name: 'steps' });
  const [asked, setAsked] = useState<FunnelFields | null>(null);
  const question: FunnelQuestionBody | null = asked && {
    steps: asked.steps.map((draft) => stepOfDraft(draft) as AnalyticsStep),
    from: range.from,
    to: range.to,
    windowMs: asked.windowDays * DAY_MS,
    by: asked.by,
    ...(asked.breakdown.trim() ? { breakdown: asked.breakdown.trim() } : {}),
  };
  const answer = useQuery({
    queryKey: ['funnel', apiKey, question],
    queryFn: () => api<FunnelAnswer>(appPath(apiKey, '/funnels'), { method: 'POST', body: question }),
    enabled: question !== null,
  });
  const error = answer.error;
  const errorField = formFieldOf(error instanceof ApiError ? error.field : undefined);
  const { errors } = form.formState;
  const serverError = (name: string) => (errorField === name ? error?.message : undefined);
  // A step's name in the result: the feature's, page's or guide's name, the track event's own.
  const nameOf = (draft: StepDraft) => {
    const list = draft.kind === 'feature' ? features.data : draft.kind === 'page' ? pages.data : draft.kind === 'guide' ? guides.data : undefined;
    const name = list?.find((d) => d.id === draft.value)?.name ?? draft.value;
    return draft.kind === 'guide' ? `${name} ${draft.event ?? 'seen'}` : draft.kind === 'track' ? `“${draft.value.trim()}”` : name;
  };
  return (
    <>
      <header className="view-head">
        <h1>Funnels</h1>
        <RangePicker range={range} onChange={setRange} />
      </header>
      <p className="muted">
        Who did these steps in this order: entries at step 1 within the range, each next step after the one before and within the window of the
        entry. A step done before the step ahead of it does not count.
      </p>
      <form
        className="card form"
        aria-label="Funnel question"
        onSubmit={form.handleSubmit((fields) => setAsked({ ...fields, windowDays: Number(fields.windowDays) }))}
      >
        <ol className="funnel-builder">
          {steps.fields.map((item, i) => (
            <li key={item.id}>
              <Controller
                control={form.control}
                name={`steps.${i}`}
                rules={{ validate: checkDraft }}
                render={({ field }) => (
                  <StepPicker
                    label={`Step ${i + 1}`}
                    value={field.value}
                    onChange={field.onChange}
                    kinds={KINDS}
                    features={features.data ?? []}
                    pages={pages.data ?? []}
                    guides={guides.data ?? []}
                    error={errors.steps?.[i]?.message ?? serverError(`steps.${i}`)}
                  />
                )}
              />
              {steps.fields.length > MIN_STEPS && (
                <button type="button" aria-label={`Remove step ${i + 1}`} onClick={() => steps.remove(i)}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ol>
        <div className="row">
          {steps.fields.length < MAX_STEPS && (
            <button type="button" onClick={() => steps.append({ kind: 'feature', value: features.data?.[0]?.id ?? '' })}>
              Add a step
            </button>
          )}
          <Field label="Window (days)" error={errors.windowDays?.message ?? serverError('windowDays')} hint="From step 1 to the last">
            <input
              type="number"
              min={1}
              max={90}
              {...form.register('windowDays', { min: { value: 1, message: '1 to 90 days' }, max: { value: 90, message: '1 to 90 days' }, required: '1 to 90 days' })}
            />
          </Field>
          <Field label="Count" error={serverError('by')}>
            <select {...form.register('by')}>
              <option value="visitor">Visitors</option>
              <option value="account">Accounts</option>
            </select>
          </Field>
          <Field label="Breakdown (optional)" error={serverError('breakdown')} hint="A metadata field, e.g. plan">
            <input autoComplete="off" maxLength={100} {...form.register('breakdown')} />
          </Field>
          <button type="submit" className="primary">
            Show funnel
          </button>
        </div>
      </form>
      {error && !errorField && (
        <div className="error" role="alert">
          {error.message}
        </div>
      )}
      {asked && (
        <QueryState isPending={answer.isPending} error={null}>
          {/* Keyed by the question: a new answer opens with its dropped lists closed. */}
          {answer.data && <FunnelResult key={JSON.stringify(question)} apiKey={apiKey} answer={answer.data} names={asked.steps.map(nameOf)} />}
        </QueryState>
      )}
    </>
  );
}
