/**
 * An app's settings (the site config values the agent reads from the server): guide throttling, the order of
 * adoption guides and markdown steps, the guides' appearance (ThemeEditor), form validation (FormFieldsEditor),
 * recording, the collector's quotas for the app (issue #31), and the launcher config as JSON. The server checks them;
 * a 400 names the field.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormProvider, useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { api, ApiError, appPath } from '../api';
import { QueryState } from '../components/QueryState';
import { useLeaveGuard } from '../components/useLeaveGuard';
import type { AppSettings } from '../types';
import { badSelector, fieldsOfForm, formFieldsOf, FormFieldsEditor, type FormFieldsForm } from './FormFieldsEditor';
import { parseJson } from './JsonEditor';
import { ThemeEditor, themeFormOf, themeOfForm, type ThemeForm } from './ThemeEditor';

interface SettingsForm extends FormFieldsForm, ThemeForm {
  throttlingEnabled: boolean;
  interval: string;
  unit: 'minute' | 'hour' | 'day';
  adoptionGuides: 'before' | 'after';
  recordingEnabled: boolean;
  sampleRate: string;
  viewersSeeRecordings: boolean;
  launcher: string;
  guideMarkdown: boolean;
  eventsPerMinute: string;
  recordingBytesPerDay: string;
}

const formOf = (s: AppSettings): SettingsForm => ({
  throttlingEnabled: s.guides.throttling.enabled,
  interval: String(s.guides.throttling.interval),
  unit: s.guides.throttling.unit,
  adoptionGuides: s.guides.adoptionGuides,
  recordingEnabled: s.recording.enabled,
  sampleRate: String(s.recording.sampleRate),
  viewersSeeRecordings: s.recording.viewersSeeRecordings === true,
  launcher: s.launcher ? JSON.stringify(s.launcher, null, 2) : '',
  guideMarkdown: s.guideMarkdown,
  formValidationEnabled: s.formValidation.enabled,
  formFields: formFieldsOf(s.formValidation.fields),
  theme: themeFormOf(s.theme),
  eventsPerMinute: String(s.quotas.eventsPerMinute),
  recordingBytesPerDay: String(s.quotas.recordingBytesPerDay),
});

/** The page. */
export function SettingsPage() {
  const apiKey = useParams().apiKey!;
  const settings = useQuery({ queryKey: ['settings', apiKey], queryFn: () => api<AppSettings>(appPath(apiKey, '/settings')) });
  return (
    <>
      <header className="view-head">
        <h1>Settings</h1>
      </header>
      <QueryState isPending={settings.isPending} error={settings.error}>
        {settings.data && <SettingsEditor apiKey={apiKey} start={settings.data} />}
      </QueryState>
    </>
  );
}

function SettingsEditor({ apiKey, start }: { apiKey: string; start: AppSettings }) {
  const client = useQueryClient();
  const form = useForm<SettingsForm>({ defaultValues: formOf(start) });
  const guard = useLeaveGuard(form.formState.isDirty);
  const save = useMutation({
    mutationFn: (body: unknown) => api<AppSettings>(appPath(apiKey, '/settings'), { method: 'PUT', body }),
    onSuccess: (stored) => {
      client.setQueryData(['settings', apiKey], stored);
      form.reset(formOf(stored));
    },
  });
  const submit = form.handleSubmit((values) => {
    let launcher: unknown = null;
    if (values.launcher.trim()) {
      const parsed = parseJson(values.launcher);
      if (!parsed.ok) {
        form.setError('launcher', { message: parsed.message });
        return;
      }
      launcher = parsed.value;
    }
    const bad = badSelector(values.formFields);
    if (bad) {
      form.setError(`formFields.${bad[0]}.selector`, { message: bad[1] });
      return;
    }
    save.mutate({
      launcher,
      guides: {
        throttling: { enabled: values.throttlingEnabled, interval: Number(values.interval), unit: values.unit },
        adoptionGuides: values.adoptionGuides,
      },
      // The whole part is replaced by the PUT: every field of it is sent, the viewers' permission too.
      recording: { enabled: values.recordingEnabled, sampleRate: Number(values.sampleRate), viewersSeeRecordings: values.viewersSeeRecordings },
      formValidation: { enabled: values.formValidationEnabled, fields: fieldsOfForm(values.formFields) },
      guideMarkdown: values.guideMarkdown,
      theme: themeOfForm(values.theme),
      quotas: { eventsPerMinute: Number(values.eventsPerMinute), recordingBytesPerDay: Number(values.recordingBytesPerDay) },
    });
  });
  const serverField = save.error instanceof ApiError ? save.error.field : undefined;
  const errorOf = (prefix: string) => (serverField?.startsWith(prefix) ? save.error!.message : undefined);
  return (
    <FormProvider {...form}>
      {guard.dialog}
      <form className="settings" onSubmit={submit} aria-label="Settings">
        <section className="card form">
          <h2>Guides</h2>
          <label className="check">
            <input type="checkbox" {...form.register('throttlingEnabled')} /> Throttle auto-launched guides
          </label>
          <div className="row">
            <label className="field">
              <span>At most one every</span>
              <input type="number" min={0} step={1} {...form.register('interval', { required: true })} />
            </label>
            <label className="field">
              <span>Unit</span>
              <select {...form.register('unit')}>
                <option value="minute">minutes</option>
                <option value="hour">hours</option>
                <option value="day">days</option>
              </select>
            </label>
          </div>
          {errorOf('guides') && <p className="field-error" role="alert">{errorOf('guides')}</p>}
          <label className="field">
            <span>Adoption guides (isTraining)</span>
            <select {...form.register('adoptionGuides')}>
              <option value="before">before the other guides</option>
              <option value="after">after the other guides</option>
            </select>
          </label>
          <label className="check">
            <input type="checkbox" {...form.register('guideMarkdown')} /> Read steps written in markdown (docs/markdown.md)
          </label>
        </section>
        <ThemeEditor errorAt={errorOf} />
        <FormFieldsEditor errorAt={errorOf} />
        <section className="card form">
          <h2>Recording</h2>
          <label className="check">
            <input type="checkbox" {...form.register('recordingEnabled')} /> Record sessions
          </label>
          <label className="field">
            <span>Sample rate (0 to 1 of sessions)</span>
            <input type="number" min={0} max={1} step={0.05} {...form.register('sampleRate')} />
          </label>
          <label className="check">
            <input type="checkbox" {...form.register('viewersSeeRecordings')} /> Viewers may watch recordings
            <span className="muted"> (editors and admins always may)</span>
          </label>
          {errorOf('recording') && <p className="field-error" role="alert">{errorOf('recording')}</p>}
        </section>
        <section className="card form">
          <h2>Quotas</h2>
          <p className="muted">What the collector accepts for this app at most; over one, a beacon is refused whole (429) and the agent waits.</p>
          <div className="row">
            <label className="field">
              <span>Events a minute</span>
              <input type="number" min={0} step={1} {...form.register('eventsPerMinute', { required: true })} />
            </label>
            <label className="field">
              <span>Recording bytes a day (compressed; 1073741824 is 1 GiB)</span>
              <input type="number" min={0} step={1} {...form.register('recordingBytesPerDay', { required: true })} />
            </label>
          </div>
          {errorOf('quotas') && <p className="field-error" role="alert">{errorOf('quotas')}</p>}
        </section>
        <section className="card form">
          <h2>Launcher</h2>
          <label className="field">
            <span>Launcher config (JSON: {'{ "enabled": true, "data": { … } }'}); empty to use the one in the server's guide folder</span>
            <textarea rows={8} className="mono" spellCheck={false} aria-label="Launcher JSON" {...form.register('launcher')} />
          </label>
          {(form.formState.errors.launcher?.message || errorOf('launcher')) && (
            <p className="field-error" role="alert">{form.formState.errors.launcher?.message ?? errorOf('launcher')}</p>
          )}
        </section>
        <div className="toolbar">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save settings'}
          </button>
          {save.isSuccess && !form.formState.isDirty && <span className="ok-note" role="status">Saved.</span>}
          {save.error && !serverField && <span className="error">{save.error.message}</span>}
        </div>
      </form>
    </FormProvider>
  );
}
