/**
 * The form of a new segment, or of one being changed (issue #35): a name, metadata conditions (path, operator,
 * value) and behaviour conditions (what, which feature, page, guide or track event, at least how many times, within
 * how many days), each a react-hook-form field array with rows to add and remove. The server checks the whole; its
 * 400 is shown beside the field it names, or above the buttons when the form has no such field.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import { api, ApiError, appPath } from '../api';
import { ChoiceOptions } from '../components/ChoiceOptions';
import { Field } from '../components/Field';
import { BEHAVIOUR_KINDS, definitionOf, fieldsOf, formFieldOf, takesAtLeast, targetList, type SegmentFields } from '../segmentFields';
import type { Segment } from '../types';
import { useSegmentPickers } from './useSegmentPickers';

/** Props of {@link SegmentForm}. */
export interface SegmentFormProps {
  apiKey: string;
  /** The segment being changed; absent: a new one. */
  segment?: Segment;
  /** After the save (with the segment's id), or Cancel (undefined). */
  onDone(id?: string): void;
}

const EMPTY: SegmentFields = { name: '', when: [], behaviour: [{ kind: 'feature', target: '', atLeast: '', days: '' }] };

/** The add/edit form of a segment. */
export function SegmentForm({ apiKey, segment, onDone }: SegmentFormProps) {
  const client = useQueryClient();
  const pickers = useSegmentPickers(apiKey);
  const form = useForm<SegmentFields>({ defaultValues: segment ? fieldsOf(segment.name, segment.definition) : EMPTY });
  const when = useFieldArray({ control: form.control, name: 'when' });
  const behaviour = useFieldArray({ control: form.control, name: 'behaviour' });
  const save = useMutation({
    mutationFn: async (values: SegmentFields) => {
      const body = { name: values.name.trim(), definition: definitionOf(values) };
      if (!segment) return (await api<{ id: string }>(appPath(apiKey, '/segments'), { method: 'POST', body })).id;
      await api(appPath(apiKey, `/segments/${encodeURIComponent(segment.id)}`), { method: 'PATCH', body });
      return segment.id;
    },
    onSuccess: (id) => {
      void client.invalidateQueries({ queryKey: ['segments', apiKey] });
      void client.invalidateQueries({ queryKey: ['segment', apiKey, id] });
      onDone(id);
    },
    onError: (err) => {
      const field = err instanceof ApiError && err.field ? formFieldOf(err.field) : undefined;
      if (field) form.setError(field as FieldPath<SegmentFields>, { message: err.message });
    },
  });
  const shown = save.error && !(save.error instanceof ApiError && save.error.field && formFieldOf(save.error.field)) ? save.error : null;
  const errors = form.formState.errors;
  const title = segment ? `Change ${segment.name}` : 'New segment';
  return (
    <form className="card form" aria-label={title} onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <h2>{title}</h2>
      <Field label="Name" error={errors.name?.message}>
        <input autoComplete="off" maxLength={200} {...form.register('name', { required: 'A name, please' })} />
      </Field>

      <fieldset className="step conditions">
        <legend>Visitor and account metadata</legend>
        {when.fields.map((row, i) => (
          <div className="row" key={row.id} aria-label={`Metadata condition ${i + 1}`} role="group">
            <Field label="Field" hint="visitor.X, account.X, visitorId or accountId">
              <input className="mono" spellCheck={false} autoComplete="off" placeholder="visitor.plan" {...form.register(`when.${i}.path`, { required: 'A field, please' })} />
            </Field>
            <Field label="Is">
              <select {...form.register(`when.${i}.operator`)}>
                <option value="is">is</option>
                <option value="contains">contains</option>
                <option value="startsWith">starts with</option>
                <option value="in">is one of (a, b, c)</option>
              </select>
            </Field>
            <Field label="Value" hint="Numbers, true, false and null as such">
              <input autoComplete="off" {...form.register(`when.${i}.value`)} />
            </Field>
            <button type="button" className="danger-outline" onClick={() => when.remove(i)} aria-label={`Remove metadata condition ${i + 1}`}>
              Remove
            </button>
          </div>
        ))}
        <button type="button" onClick={() => when.append({ path: '', operator: 'is', value: '' })}>
          Add a metadata condition
        </button>
      </fieldset>

      <fieldset className="step conditions">
        <legend>Behaviour</legend>
        {behaviour.fields.map((row, i) => {
          const kind = form.watch(`behaviour.${i}.kind`);
          const list = targetList(kind);
          const options = list === 'features' ? pickers.features : list === 'pages' ? pickers.pages : list === 'guides' ? pickers.guides : [];
          const rowErrors = errors.behaviour?.[i];
          return (
            <div className="row" key={row.id} aria-label={`Behaviour condition ${i + 1}`} role="group">
              <Field label="The visitor">
                <select {...form.register(`behaviour.${i}.kind`, { onChange: () => form.setValue(`behaviour.${i}.target`, '') })}>
                  {BEHAVIOUR_KINDS.map((k) => (
                    <option key={k.kind} value={k.kind}>
                      {k.label}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label={list === 'text' ? 'Track event' : list === 'guides' ? 'Guide' : list === 'pages' ? 'Page' : 'Feature'} error={rowErrors?.target?.message}>
                {list === 'text' ? (
                  <input autoComplete="off" {...form.register(`behaviour.${i}.target`, { required: 'A track event name, please' })} />
                ) : (
                  <select {...form.register(`behaviour.${i}.target`, { required: 'Pick one, please' })}>
                    <ChoiceOptions prompt="Pick…" options={options} />
                  </select>
                )}
              </Field>
              {takesAtLeast(kind) && (
                <Field label="At least (times)" error={rowErrors?.atLeast?.message}>
                  <input type="number" min={1} placeholder="1" {...form.register(`behaviour.${i}.atLeast`)} />
                </Field>
              )}
              <Field label="In the last (days)" hint="Empty: ever" error={rowErrors?.days?.message}>
                <input type="number" min={1} max={365} {...form.register(`behaviour.${i}.days`)} />
              </Field>
              <button type="button" className="danger-outline" onClick={() => behaviour.remove(i)} aria-label={`Remove behaviour condition ${i + 1}`}>
                Remove
              </button>
            </div>
          );
        })}
        <button type="button" onClick={() => behaviour.append({ kind: 'feature', target: '', atLeast: '', days: '' })}>
          Add a behaviour condition
        </button>
      </fieldset>

      {shown && (
        <p className="error" role="alert">
          {shown.message}
        </p>
      )}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : segment ? 'Save segment' : 'Add segment'}
        </button>
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
