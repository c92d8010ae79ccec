/**
 * The guide editor's "Goal and experiment" fields (issue #35 "Did the guide work?"): what the guide should bring
 * about (one of the app's features or pages, or a track event) within how many days of seeing it, and the share of
 * its audience held back as a control group (guides §4 Control group: the collector picks them, they never see it).
 */
import type { UseFormReturn } from 'react-hook-form';
import { ChoiceOptions } from '../components/ChoiceOptions';
import { Field } from '../components/Field';
import type { GoalFormFields } from '../guideGoal';
import type { Feature, Page } from '../types';
import { useDefinitions } from './RuleActions';

/** Props of {@link GuideGoalFields}: the editor's form (its goal fields) and where a refusal is read. */
export interface GuideGoalFieldsProps {
  apiKey: string;
  form: UseFormReturn<GoalFormFields>;
  fieldError(field: string): string | undefined;
}

/** The goal's kind, target and days, and the control share. */
export function GuideGoalFields({ apiKey, form, fieldError }: GuideGoalFieldsProps) {
  const kind = form.watch('goalKind');
  const features = useDefinitions<Feature>(apiKey, 'features', kind === 'feature');
  const pages = useDefinitions<Page>(apiKey, 'pages', kind === 'page');
  const choices = kind === 'feature' ? features.data : kind === 'page' ? pages.data : undefined;
  const ref = form.watch('goalRef');
  // The stored target is an option from the first render (the list comes later): the select shows it.
  const options = (choices ?? []).map(({ id, name }) => ({ id, name }));
  if (ref && kind !== 'track' && !options.some((o) => o.id === ref)) options.unshift({ id: ref, name: ref });
  const refError = kind ? fieldError(`goal.${kind}`) : undefined;
  return (
    <fieldset className="step" aria-label="Goal and experiment">
      <legend>Goal and experiment</legend>
      <div className="row">
        <Field label="Goal" error={fieldError('goal')} hint="What seeing the guide should lead to">
          <select {...form.register('goalKind')}>
            <option value="">No goal</option>
            <option value="feature">Use a feature</option>
            <option value="page">Visit a page</option>
            <option value="track">A track event</option>
          </select>
        </Field>
        {kind === 'track' && (
          <Field label="Track event name" error={refError}>
            <input {...form.register('goalRef')} placeholder="report shared" />
          </Field>
        )}
        {(kind === 'feature' || kind === 'page') && (
          <Field label={kind === 'feature' ? 'Feature' : 'Page'} error={refError}>
            <select {...form.register('goalRef')}>
              <ChoiceOptions prompt={`Choose a ${kind}`} options={options} />
            </select>
          </Field>
        )}
      </div>
      {kind && (
        <div className="row">
          <Field label="Within (days)" error={fieldError('goal.withinDays')} hint="Of first seeing the guide: 1 to 90">
            <input type="number" min={1} max={90} {...form.register('goalDays')} />
          </Field>
          <Field
            label="Control group (%)"
            error={fieldError('experiment.controlShare') ?? fieldError('experiment')}
            hint="1 to 50% of the audience never see it, to compare with; empty: no experiment"
          >
            <input type="number" min={1} max={50} step="any" {...form.register('controlPercent')} placeholder="none" />
          </Field>
        </div>
      )}
    </fieldset>
  );
}
