/**
 * The guides' theme of one app for an editor (issue #33): the Settings page's ThemeEditor on its own, saved with
 * `PUT /api/apps/{apiKey}/settings/theme`, which editors may call (the rest of the settings is the admin's).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormProvider, useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { api, ApiError, appPath } from '../api';
import { QueryState } from '../components/QueryState';
import { useLeaveGuard } from '../components/useLeaveGuard';
import type { GuideTheme } from '../../shared/surfaces/guideTheme';
import { ThemeEditor, themeFormOf, themeOfForm, type ThemeForm } from './ThemeEditor';

/** The page. */
export function ThemePage() {
  const apiKey = useParams().apiKey!;
  const theme = useQuery({ queryKey: ['theme', apiKey], queryFn: () => api<GuideTheme>(appPath(apiKey, '/settings/theme')) });
  return (
    <>
      <header className="view-head">
        <h1>Guide theme</h1>
      </header>
      <QueryState isPending={theme.isPending} error={theme.error}>
        {theme.data && <ThemeForm apiKey={apiKey} start={theme.data} />}
      </QueryState>
    </>
  );
}

function ThemeForm({ apiKey, start }: { apiKey: string; start: GuideTheme }) {
  const client = useQueryClient();
  const form = useForm<ThemeForm>({ defaultValues: { theme: themeFormOf(start) } });
  const guard = useLeaveGuard(form.formState.isDirty);
  const save = useMutation({
    mutationFn: (body: GuideTheme) => api<GuideTheme>(appPath(apiKey, '/settings/theme'), { method: 'PUT', body }),
    onSuccess: (stored) => {
      client.setQueryData(['theme', apiKey], stored);
      form.reset({ theme: themeFormOf(stored) });
    },
  });
  const serverField = save.error instanceof ApiError ? save.error.field : undefined;
  const errorAt = (prefix: string) => (serverField?.startsWith(prefix) ? save.error!.message : undefined);
  return (
    <FormProvider {...form}>
      {guard.dialog}
      <form className="settings" aria-label="Guide theme" onSubmit={form.handleSubmit((v) => save.mutate(themeOfForm(v.theme)))}>
        <ThemeEditor errorAt={errorAt} />
        <div className="toolbar">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save theme'}
          </button>
          {save.isSuccess && !form.formState.isDirty && <span className="ok-note" role="status">Saved.</span>}
          {save.error && !serverField && <span className="error">{save.error.message}</span>}
        </div>
      </form>
    </FormProvider>
  );
}
