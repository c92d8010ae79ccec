/**
 * What the Features and Pages screens share (issue #35): the two kinds' words and paths, the queries of a list and
 * of one definition's use over a range, and the editor's actions on one definition: rename (react-hook-form, the
 * server's 400 beside the name) and delete after a confirmation (a page a feature is limited to: the server's 409).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, ApiError, appPath } from '../api';
import { Field } from '../components/Field';
import type { Feature, FeatureDetail, Page, PageDetail } from '../types';
import type { ChosenRange } from '../useRange';

/** The two kinds of definition, as their routes name them. */
export type RuleKind = 'features' | 'pages';

/** A definition of either kind, and with its use. */
export type Definition = Feature | Page;
export type DefinitionDetail = FeatureDetail | PageDetail;

/** The words and paths of each kind. */
export const KINDS = {
  features: { title: 'Features', one: 'feature', ruleLabel: 'CSS selector', counts: 'clicks' },
  pages: { title: 'Pages', one: 'page', ruleLabel: 'URL rule', counts: 'page loads' },
} as const;

/** The console path of the list, or of one definition. */
export function consolePath(apiKey: string, kind: RuleKind, id?: string): string {
  return `/apps/${encodeURIComponent(apiKey)}/${kind}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;
}

/** What a definition matches, in words: its selector or its URL rule. */
export function ruleText(definition: Definition): string {
  return 'selector' in definition.rule ? definition.rule.selector : definition.rule.url;
}

/** The app's definitions of `kind`, oldest first (GET .../features or .../pages). */
export function useDefinitions<D extends Definition>(apiKey: string, kind: RuleKind, enabled = true) {
  return useQuery({ queryKey: [kind, apiKey], queryFn: () => api<D[]>(appPath(apiKey, `/${kind}`)), enabled });
}

/** One definition and its use over `range` (GET .../{id}?from&to), shared by the list's row and the detail view. */
/** How often a rule still counting its past use is read again. */
const BACKFILL_POLL_MS = 1000;

export function useDefinitionUse<D extends DefinitionDetail>(apiKey: string, kind: RuleKind, id: string, range: ChosenRange) {
  return useQuery({
    queryKey: [KINDS[kind].one, apiKey, id, range.from, range.to],
    queryFn: () => api<D>(appPath(apiKey, `/${kind}/${encodeURIComponent(id)}?from=${range.from}&to=${range.to}`)),
    // A rule whose past use is still being counted (issue #35 backfill) is read again until it is ready.
    refetchInterval: (query) => (query.state.data?.backfill.state === 'counting' ? BACKFILL_POLL_MS : false),
  });
}

/**
 * After a change the list is read again (a page's new name shows in the features' list too); after a rename, this
 * definition's use too. A deleted one's use is not asked again: its row or view is still on screen, and would 404.
 */
function useRefresh(apiKey: string, kind: RuleKind, id: string) {
  const client = useQueryClient();
  return (renamed: boolean) => {
    void client.invalidateQueries({ queryKey: [kind, apiKey] });
    if (renamed) void client.invalidateQueries({ queryKey: [KINDS[kind].one, apiKey, id] });
  };
}

/** Props of {@link RuleActions}. */
export interface RuleActionsProps {
  apiKey: string;
  kind: RuleKind;
  definition: Definition;
  /** After the delete went through (the detail view leaves for the list). */
  onDeleted?(): void;
}

/** Rename… and Delete… of one definition; editors and admins only (the caller asks useCan). */
export function RuleActions({ apiKey, kind, definition, onDeleted }: RuleActionsProps) {
  const one = KINDS[kind].one;
  const client = useQueryClient();
  const refresh = useRefresh(apiKey, kind, definition.id);
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<{ name: string }>({ defaultValues: { name: definition.name } });
  const path = appPath(apiKey, `/${kind}/${encodeURIComponent(definition.id)}`);
  const rename = useMutation({
    mutationFn: (name: string) => api<Definition>(path, { method: 'PATCH', body: { name } }),
    onSuccess: () => {
      setRenaming(false);
      refresh(true);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.field === 'name') form.setError('name', { message: err.message });
    },
  });
  const remove = useMutation({
    mutationFn: () => api(path, { method: 'DELETE' }),
    onSuccess: () => {
      // Out of the cached list at once: a list shown before its new answer would ask for the deleted one's use.
      client.setQueryData<Definition[]>([kind, apiKey], (list) => list?.filter((d) => d.id !== definition.id));
      onDeleted?.();
      refresh(false);
    },
    onSettled: () => setConfirming(false),
  });
  // A refusal that names no field of the rename form (a 409 of a page in use, a 404, the network).
  const error = remove.error ?? (rename.error instanceof ApiError && rename.error.field === 'name' ? null : rename.error);
  if (renaming) {
    return (
      <form
        className="toolbar"
        aria-label={`Rename ${definition.name}`}
        onSubmit={form.handleSubmit((v) => rename.mutate(v.name.trim()))}
      >
        <Field label={`New name of the ${one}`} error={form.formState.errors.name?.message}>
          <input autoComplete="off" maxLength={200} {...form.register('name', { required: 'A name, please' })} />
        </Field>
        <button type="submit" className="primary" disabled={rename.isPending}>
          {rename.isPending ? 'Saving…' : 'Save name'}
        </button>
        <button type="button" onClick={() => setRenaming(false)}>
          Cancel
        </button>
        {error && (
          <p className="error" role="alert">
            {error.message}
          </p>
        )}
      </form>
    );
  }
  return (
    <div>
      <div className="toolbar">
        <button
          type="button"
          aria-label={`Rename ${definition.name}…`}
          onClick={() => {
            form.reset({ name: definition.name });
            rename.reset();
            setRenaming(true);
          }}
        >
          Rename…
        </button>
        {confirming ? (
          <>
            <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              Delete {definition.name}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button
            type="button"
            className="danger-outline"
            aria-label={`Delete ${definition.name}…`}
            onClick={() => {
              remove.reset();
              setConfirming(true);
            }}
          >
            Delete…
          </button>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error.message}
        </p>
      )}
    </div>
  );
}
