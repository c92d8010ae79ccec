/**
 * A feature's event properties on its console page (issue #35; analytics §3 event property rules): what the agent
 * collects on each click of the feature, served to it in guide.json's `features`. Each row is a name and where the
 * value comes from: an attribute of the clicked element, the value or text of an element of the page, or a dotted
 * path into the page's globals. A react-hook-form field array; `PATCH .../features/{id}` `{ eventProperties }`
 * saves the whole list (none: null); the server's 400 is shown beside the field it names
 * (`eventProperties[1].source` is row 2's value).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import { api, ApiError, appPath } from '../api';
import { Field } from '../components/Field';
import type { FeatureEventProperty } from '../types';

/** Where a property's value is read. */
type Source = 'source' | 'selector' | 'path';

const SOURCES: Array<{ source: Source; label: string; placeholder: string }> = [
  { source: 'source', label: 'an attribute of the clicked element', placeholder: 'data-plan' },
  { source: 'selector', label: 'the value or text of an element', placeholder: '#plan-name' },
  { source: 'path', label: 'a path in the page’s globals', placeholder: 'app.user.plan' },
];

interface Row {
  name: string;
  from: Source;
  value: string;
}
interface Fields {
  rows: Row[];
}

const rowOf = (p: FeatureEventProperty): Row => {
  const from: Source = p.selector !== undefined ? 'selector' : p.path !== undefined ? 'path' : 'source';
  return { name: p.name, from, value: p[from] ?? '' };
};

/** `eventProperties[1].source` -> `rows.1.value`; `eventProperties[1].name` -> `rows.1.name`. */
function formFieldOf(field: string | undefined): FieldPath<Fields> | undefined {
  const match = /^eventProperties\[(\d+)\](?:\.(\w+))?$/.exec(field ?? '');
  if (!match) return undefined;
  return `rows.${Number(match[1])}.${match[2] === 'name' ? 'name' : 'value'}`;
}

/** Props of {@link EventPropertiesEditor}. */
export interface EventPropertiesEditorProps {
  apiKey: string;
  featureId: string;
  properties: FeatureEventProperty[];
  /** Whether the signed-in user may change them (editors and admins). */
  canEdit: boolean;
}

/** The list of a feature's event properties, editable by editors. */
export function EventPropertiesEditor({ apiKey, featureId, properties, canEdit }: EventPropertiesEditorProps) {
  const client = useQueryClient();
  const form = useForm<Fields>({ defaultValues: { rows: properties.map(rowOf) } });
  const rows = useFieldArray({ control: form.control, name: 'rows' });
  const save = useMutation({
    mutationFn: (values: Fields) => {
      const eventProperties = values.rows.map((r) => ({ name: r.name.trim(), [r.from]: r.value.trim() }));
      return api(appPath(apiKey, `/features/${encodeURIComponent(featureId)}`), { method: 'PATCH', body: { eventProperties: eventProperties.length ? eventProperties : null } });
    },
    onSuccess: (_, values) => {
      form.reset(values);
      void client.invalidateQueries({ queryKey: ['feature', apiKey, featureId] });
    },
    onError: (err) => {
      const field = err instanceof ApiError ? formFieldOf(err.field) : undefined;
      if (field) form.setError(field, { message: err.message });
    },
  });
  const shown = save.error && !(save.error instanceof ApiError && formFieldOf(save.error.field)) ? save.error : null;
  const errors = form.formState.errors.rows;
  return (
    <section className="card" aria-label="Event properties">
      <h2>Event properties</h2>
      <p className="muted">Collected by the agent on each click of this feature and stored with the click.</p>
      {!canEdit ? (
        properties.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <dl className="facts">
            {properties.map((p) => (
              <div key={p.name}>
                <dt>{p.name}</dt>
                <dd>
                  <code>{p.source ?? p.selector ?? p.path}</code>
                </dd>
              </div>
            ))}
          </dl>
        )
      ) : (
        <form className="form" aria-label="Event properties of the feature" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
          {rows.fields.map((row, i) => {
            const from = form.watch(`rows.${i}.from`);
            return (
              <div className="row" key={row.id} role="group" aria-label={`Event property ${i + 1}`}>
                <Field label="Name" error={errors?.[i]?.name?.message}>
                  <input autoComplete="off" maxLength={100} {...form.register(`rows.${i}.name`, { required: 'A name, please' })} />
                </Field>
                <Field label="From">
                  <select {...form.register(`rows.${i}.from`)}>
                    {SOURCES.map((s) => (
                      <option key={s.source} value={s.source}>
                        {s.label}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field label="Read" error={errors?.[i]?.value?.message}>
                  <input
                    className="mono"
                    spellCheck={false}
                    autoComplete="off"
                    placeholder={SOURCES.find((s) => s.source === from)?.placeholder}
                    {...form.register(`rows.${i}.value`, { required: 'Where to read it, please' })}
                  />
                </Field>
                <button type="button" className="danger-outline" onClick={() => rows.remove(i)} aria-label={`Remove event property ${i + 1}`}>
                  Remove
                </button>
              </div>
            );
          })}
          <div className="toolbar">
            <button type="button" onClick={() => rows.append({ name: '', from: 'source', value: '' })}>
              Add an event property
            </button>
            <button type="submit" className="primary" disabled={save.isPending || !form.formState.isDirty}>
              {save.isPending ? 'Saving…' : 'Save event properties'}
            </button>
            {save.isSuccess && !form.formState.isDirty && (
              <span className="muted" role="status">
                Saved
              </span>
            )}
          </div>
          {shown && (
            <p className="field-error" role="alert">
              {shown.message}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
