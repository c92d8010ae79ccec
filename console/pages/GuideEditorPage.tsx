/**
 * Creating and editing a guide: a form for the common fields (name, launch method, priority, schedule, goal and
 * experiment (GuideGoalFields), and per step its
 * type, page rule, target element and texts) beside a JSON editor of the whole guide. Both are checked as you
 * type with the checks the server and the agent use (server/guides/checkGuideBody: the agent's
 * checkGuideLoadResponse and checkBuildingBlocks); Save puts the guide, and a 400's field is shown where it is.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useFieldArray, useForm, type UseFormReturn } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { checkGuideBody, LAUNCH_METHODS, STEP_TYPES } from '../../server/guides/checkGuideBody';
import { api, ApiError, appPath } from '../api';
import { QueryState } from '../components/QueryState';
import { Field } from '../components/Field';
import { useLeaveGuard } from '../components/useLeaveGuard';
import { isSelector } from '../isSelector';
import { newGuide, readTexts, TEXT_SLOTS, writeTexts, type TextSlot } from '../guideTemplate';
import { fromLocalInput, toLocalInput } from '../scheduleFields';
import type { GuideBody, StoredGuide } from '../types';
import { useCan } from '../useMe';
import { JsonEditor, parseJson } from './JsonEditor';
import { audienceSegment } from '../guideTargeting';
import { useSegmentChoices } from './useSegmentPickers';
import { applyGoalForm, goalFormOf, type GoalFormFields } from '../guideGoal';
import { GuideGoalFields } from './GuideGoalFields';

/** The form's fields. */
interface GuideForm extends GoalFormFields {
  id: string;
  name: string;
  launchMethod: string;
  priority: string;
  /** guides §4 Timebox, as datetime-local values ('' for none). */
  showsAfter: string;
  expiresAfter: string;
  /** The id of the segment the guide is for (issue #35); '' for none. */
  segment: string;
  steps: Array<{ type: string; regexUrlRule: string; elementPathRule: string; markdown: string } & Partial<Record<TextSlot, string>>>;
}

function formOf(guide: GuideBody): GuideForm {
  const attributes = (guide.attributes ?? {}) as { priority?: unknown };
  return {
    id: guide.id,
    name: guide.name ?? '',
    launchMethod: guide.launchMethod,
    priority: attributes.priority === undefined ? '' : String(attributes.priority),
    showsAfter: toLocalInput(guide.showsAfter),
    expiresAfter: toLocalInput(guide.expiresAfter),
    segment: audienceSegment(guide) ?? '',
    ...goalFormOf(guide),
    steps: guide.steps.map((step) => ({
      type: step.type,
      regexUrlRule: typeof step.regexUrlRule === 'string' ? step.regexUrlRule : '',
      elementPathRule: typeof step.elementPathRule === 'string' ? step.elementPathRule : '',
      markdown: typeof step.markdown === 'string' ? step.markdown : '',
      ...readTexts(step.domJson),
    })),
  };
}

/** The guide with the form's values written in; fields left empty are taken out. */
function applyForm(guide: GuideBody, form: GuideForm, isNew: boolean): GuideBody {
  const next: GuideBody = { ...guide, id: isNew ? form.id : guide.id, name: form.name, launchMethod: form.launchMethod };
  const priority = Number(form.priority);
  const attributes = { ...((guide.attributes as Record<string, unknown> | undefined) ?? {}) };
  if (form.priority.trim() !== '' && Number.isFinite(priority)) attributes.priority = priority;
  else delete attributes.priority;
  next.attributes = attributes;
  for (const key of ['showsAfter', 'expiresAfter'] as const) {
    const ms = fromLocalInput(form[key]);
    if (ms === undefined) delete next[key];
    // A time the form shows as it was (to the minute) keeps its stored value, seconds and all.
    else if (toLocalInput(guide[key]) !== form[key]) next[key] = ms;
  }
  // issue #35: the audience's segment; its `when` conditions (edited in the JSON) are kept.
  const { segment: _segment, ...audience } = (guide.audience as Record<string, unknown> | undefined) ?? {};
  if (form.segment) next.audience = { ...audience, segment: form.segment };
  else if (Object.keys(audience).length) next.audience = audience;
  else delete next.audience;
  applyGoalForm(next, form);
  next.steps = guide.steps.map((step, i) => {
    const values = form.steps[i];
    if (!values) return step;
    const copy: GuideBody['steps'][number] = { ...step, type: values.type };
    for (const key of ['regexUrlRule', 'elementPathRule', 'markdown'] as const) {
      if (values[key].trim()) copy[key] = values[key];
      else delete copy[key];
    }
    if (step.domJson !== undefined) copy.domJson = writeTexts(step.domJson, values);
    if (isNew && typeof step.id === 'string' && step.id.startsWith(`${guide.id}-`)) copy.id = `${form.id}${step.id.slice(guide.id.length)}`;
    return copy;
  });
  return next;
}

/** The page: `/guides/new` or `/guides/{id}/edit`. */
export function GuideEditorPage() {
  const { apiKey, guideId } = useParams() as { apiKey: string; guideId?: string };
  const isNew = guideId === undefined;
  const existing = useQuery({
    queryKey: ['guide', apiKey, guideId],
    queryFn: () => api<StoredGuide>(appPath(apiKey, `/guides/${encodeURIComponent(guideId!)}`)),
    enabled: !isNew,
  });
  const start = useMemo(() => (isNew ? newGuide() : existing.data?.guide), [isNew, existing.data]);
  return (
    <QueryState isPending={!isNew && existing.isPending} error={existing.error}>
      {start && <Editor apiKey={apiKey} start={start} isNew={isNew} />}
    </QueryState>
  );
}

function Editor({ apiKey, start, isNew }: { apiKey: string; start: GuideBody; isNew: boolean }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [startText] = useState(() => JSON.stringify(start, null, 2));
  const [text, setText] = useState(startText);
  // The id of the guide just saved: the page leaves for it from the render that no longer counts edits unsaved.
  const [savedId, setSavedId] = useState<string | null>(null);
  const guard = useLeaveGuard(savedId === null && text !== startText);
  const parsed = parseJson(text);
  const guide = parsed.ok ? (parsed.value as GuideBody) : undefined;
  const form = useForm<GuideForm>({ defaultValues: formOf(start) });
  const steps = useFieldArray({ control: form.control, name: 'steps' });
  const segments = useSegmentChoices(apiKey);
  // The guide's own segment is an option from the first render (the list comes later): the select shows it.
  const startSegment = audienceSegment(start);
  const segmentOptions = (segments.data ?? []).map(({ id, name }) => ({ id, name }));
  if (startSegment !== undefined && !segmentOptions.some((s) => s.id === startSegment)) segmentOptions.unshift({ id: startSegment, name: startSegment });
  // Form -> JSON: each change of a field writes the guide (the JSON editor follows).
  useEffect(() => {
    const sub = form.watch((values) => {
      setText((current) => {
        const now = parseJson(current);
        if (!now.ok) return current;
        return JSON.stringify(applyForm(now.value as GuideBody, values as GuideForm, isNew), null, 2);
      });
    });
    return () => sub.unsubscribe();
  }, [form, isNew]);
  const problem = parsed.ok ? checkGuideBody(parsed.value, isNew ? String((parsed.value as GuideBody)?.id ?? '') : start.id, { isSelector }) : null;
  // A viewer who opens this page by its URL reads the guide; saving it is an editor's.
  const canEdit = useCan('editor');
  const save = useMutation({
    mutationFn: (body: GuideBody) => api<StoredGuide>(appPath(apiKey, `/guides/${encodeURIComponent(body.id)}`), { method: 'PUT', body }),
    onSuccess: (stored) => {
      client.setQueryData(['guide', apiKey, stored.guide.id], stored);
      client.invalidateQueries({ queryKey: ['guides', apiKey] });
      setSavedId(stored.guide.id);
    },
  });
  useEffect(() => {
    if (savedId !== null) navigate(`/apps/${encodeURIComponent(apiKey)}/guides/${encodeURIComponent(savedId)}`);
  }, [savedId, apiKey, navigate]);
  const serverError = save.error instanceof ApiError ? save.error : null;
  const fieldError = (field: string) => (problem?.field === field ? problem.error : serverError?.field === field ? serverError.message : undefined);
  const syncFromJson = () => guide && Array.isArray(guide.steps) && form.reset(formOf(guide));
  const title = isNew ? 'New guide' : `Edit ${start.name ?? start.id}`;
  return (
    <>
      {guard.dialog}
      <header className="view-head">
        <h1>
          <Link to={`/apps/${encodeURIComponent(apiKey)}/guides`} className="crumb">Guides</Link> / {title}
        </h1>
        {canEdit && (
          <div className="toolbar">
            <button type="button" className="primary" disabled={!guide || problem !== null || save.isPending} onClick={() => guide && save.mutate(guide)}>
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
          </div>
        )}
      </header>
      {save.error && (
        <div className="error" role="alert">
          {save.error.message}
          {serverError?.field ? ` (${serverError.field})` : ''}
        </div>
      )}
      <div className="editor">
        <form className="card form" onSubmit={(e) => e.preventDefault()} aria-label="Guide fields">
          <h2>Guide</h2>
          {isNew && <Field label="Id" error={fieldError('id')}><input {...form.register('id')} /></Field>}
          <Field label="Name" error={fieldError('name')}><input {...form.register('name')} /></Field>
          <Field label="Launch method" error={fieldError('launchMethod')} hint={`One of ${LAUNCH_METHODS.join(', ')}, combined with '-'`}>
            <input {...form.register('launchMethod')} list="launch-methods" />
            <datalist id="launch-methods">
              {['auto', 'api', 'badge', 'launcher', 'auto-launcher', 'dom'].map((m) => <option key={m} value={m} />)}
            </datalist>
          </Field>
          <Field label="Priority" hint="Lower shows first"><input type="number" {...form.register('priority')} /></Field>
          <Field label="Audience" error={fieldError('audience.segment') ?? fieldError('audience')} hint="Everyone, or the visitors in a segment (conditions on metadata: the JSON's audience.when)">
            <select {...form.register('segment')}>
              <option value="">Everyone</option>
              {segmentOptions.map((s) => (
                <option key={s.id} value={s.id}>
                  a segment: {s.name}
                </option>
              ))}
            </select>
          </Field>
          <div className="row">
            <Field label="Show from" hint="Your time zone; empty: as soon as it is published" error={fieldError('showsAfter')}>
              <input type="datetime-local" {...form.register('showsAfter')} />
            </Field>
            <Field label="Until" hint="Empty: no end" error={fieldError('expiresAfter')}>
              <input type="datetime-local" {...form.register('expiresAfter')} />
            </Field>
          </div>
          {/* The goal fields are a part of this form's values: its control is theirs too (issue #35). */}
          <GuideGoalFields apiKey={apiKey} form={form as unknown as UseFormReturn<GoalFormFields>} fieldError={fieldError} />
          {steps.fields.map((field, i) => (
            <fieldset key={field.id} className="step">
              <legend>Step {i + 1}</legend>
              <Field label="Type" error={fieldError(`steps[${i}].type`)}>
                <select {...form.register(`steps.${i}.type`)}>
                  {STEP_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
                </select>
              </Field>
              <Field label="Page rule (regexUrlRule)" error={fieldError(`steps[${i}].regexUrlRule`)} hint="A regular expression of the page URL; empty for every page">
                <input {...form.register(`steps.${i}.regexUrlRule`)} placeholder="^https?://[^/]+/reports" />
              </Field>
              <Field label="Target element (elementPathRule)" error={fieldError(`steps[${i}].elementPathRule`)} hint="A CSS selector; tooltips point at it">
                <input {...form.register(`steps.${i}.elementPathRule`)} placeholder="#export-csv" />
              </Field>
              {TEXT_SLOTS.filter((slot) => form.getValues(`steps.${i}.${slot.key}`) !== undefined).map((slot) => (
                <Field key={slot.key} label={slot.label}>
                  {slot.key === 'text' ? <textarea rows={3} {...form.register(`steps.${i}.${slot.key}`)} /> : <input {...form.register(`steps.${i}.${slot.key}`)} />}
                </Field>
              ))}
              {fieldError(`steps[${i}].domJson`) && <p className="field-error">{fieldError(`steps[${i}].domJson`)}</p>}
              <Field label="Markdown" error={fieldError(`steps[${i}].markdown`)} hint="Instead of the building blocks: {{visitor.name | there}}, [[Next]], ??? questions, <!-- skip if ... --> (docs/markdown.md)">
                <textarea rows={5} className="mono" spellCheck={false} {...form.register(`steps.${i}.markdown`)} />
              </Field>
            </fieldset>
          ))}
        </form>
        <section className="card">
          <h2>JSON</h2>
          <JsonEditor value={text} onChange={setText} onBlur={syncFromJson} parsed={parsed} problem={problem} />
        </section>
      </div>
    </>
  );
}
