/**
 * An app's Features and Pages (issue #35): each definition with what it matches (a feature's selector and the page
 * it is limited to, a page's URL rule) and its visitors, accounts and events over the range picked, counted over
 * everything stored (a rule made today shows last month's use). Editors add one (the server's 400 shown beside the
 * field it names), rename and delete it; viewers read.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { api, ApiError, appPath } from '../api';
import { Field } from '../components/Field';
import { Empty, QueryState } from '../components/QueryState';
import { RangePicker } from '../components/RangePicker';
import { formatCount } from '../format';
import { isSelector } from '../isSelector';
import type { Page } from '../types';
import { useCan } from '../useMe';
import { useRange, type ChosenRange } from '../useRange';
import { BackfillNote } from '../components/BackfillNote';
import { consolePath, KINDS, ruleText, RuleActions, useDefinitions, useDefinitionUse, type Definition, type RuleKind } from './RuleActions';

/** The Features screen. */
export function FeaturesPage() {
  return <RulesPage kind="features" />;
}

/** The Pages screen. */
export function PagesPage() {
  return <RulesPage kind="pages" />;
}

const INTRO: Record<RuleKind, string> = {
  features:
    'A feature is a named CSS selector over clicked elements (the element or one of its ancestors), on every page or on one of the pages below. It counts every click already stored.',
  pages: 'A page is a named URL rule: * within a path segment, ** across segments, :name one segment, ?a&b=c query parameters, \\ before a character to take it as it is (\\* a star). It counts every page load already stored.',
};

function RulesPage({ kind }: { kind: RuleKind }) {
  const apiKey = useParams().apiKey!;
  const [range, setRange] = useRange();
  const canEdit = useCan('editor');
  const [adding, setAdding] = useState(false);
  const words = KINDS[kind];
  const list = useDefinitions(apiKey, kind);
  // A feature's page is named in the list and offered in the form.
  const pages = useDefinitions<Page>(apiKey, 'pages', kind === 'features');
  const pageNames = new Map((pages.data ?? []).map((p) => [p.id, p.name]));
  return (
    <>
      <header className="view-head">
        <h1>{words.title}</h1>
        <div className="toolbar">
          <RangePicker range={range} onChange={setRange} />
          {canEdit && !adding && (
            <button type="button" className="primary" onClick={() => setAdding(true)}>
              New {words.one}
            </button>
          )}
        </div>
      </header>
      <p className="muted">{INTRO[kind]}</p>
      {canEdit && adding && <AddRule apiKey={apiKey} kind={kind} pages={pages.data ?? []} onDone={() => setAdding(false)} />}
      <QueryState isPending={list.isPending} error={list.error}>
        {list.data?.length === 0 ? (
          <Empty>
            <h2>No {kind} in this app yet</h2>
            <p>{canEdit ? `Add one with New ${words.one}: its counts cover every event already stored.` : `An editor can add them; their counts cover every event already stored.`}</p>
          </Empty>
        ) : (
          <table className="table" aria-label={words.title}>
            <thead>
              <tr>
                <th>Name</th>
                <th>{words.ruleLabel}</th>
                {kind === 'features' && <th>Page</th>}
                <th className="num">Visitors</th>
                <th className="num">Accounts</th>
                <th className="num">{kind === 'features' ? 'Clicks' : 'Loads'}</th>
                {canEdit && (
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.data?.map((definition) => (
                <RuleRow key={definition.id} apiKey={apiKey} kind={kind} definition={definition} range={range} pageNames={pageNames} canEdit={canEdit} />
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </>
  );
}

interface RuleRowProps {
  apiKey: string;
  kind: RuleKind;
  definition: Definition;
  range: ChosenRange;
  pageNames: Map<string, string>;
  canEdit: boolean;
}

/** One definition and its counts over the range (its own GET, cached for its detail view). */
function RuleRow({ apiKey, kind, definition, range, pageNames, canEdit }: RuleRowProps) {
  const use = useDefinitionUse(apiKey, kind, definition.id, range);
  const count = (n: number | undefined) => (use.error ? '—' : n === undefined ? '…' : formatCount(n));
  const page = 'selector' in definition.rule ? definition.rule.page : undefined;
  return (
    <tr aria-label={definition.name}>
      <td>
        <Link to={consolePath(apiKey, kind, definition.id)}>{definition.name}</Link>
        {use.error && <div className="field-error">{use.error.message}</div>}
        <BackfillNote backfill={use.data?.backfill} />
      </td>
      <td>
        <code>{ruleText(definition)}</code>
      </td>
      {kind === 'features' && (
        <td>{page === undefined ? <span className="muted">every page</span> : <Link to={consolePath(apiKey, 'pages', page)}>{pageNames.get(page) ?? page}</Link>}</td>
      )}
      <td className="num">{count(use.data?.visitors)}</td>
      <td className="num">{count(use.data?.accounts)}</td>
      <td className="num">{count(use.data?.events)}</td>
      {canEdit && (
        <td>
          <RuleActions apiKey={apiKey} kind={kind} definition={definition} />
        </td>
      )}
    </tr>
  );
}

interface RuleFields {
  name: string;
  selector: string;
  page: string;
  url: string;
}

/** The server's field names (400 `field`) -> the form's. */
const FORM_FIELD: Record<string, keyof RuleFields> = { name: 'name', 'rule.selector': 'selector', 'rule.page': 'page', 'rule.url': 'url' };

/** The form of a new feature (name, selector, page) or page (name, URL rule). */
function AddRule({ apiKey, kind, pages, onDone }: { apiKey: string; kind: RuleKind; pages: Page[]; onDone(): void }) {
  const client = useQueryClient();
  const words = KINDS[kind];
  const form = useForm<RuleFields>({ defaultValues: { name: '', selector: '', page: '', url: '' } });
  const add = useMutation({
    mutationFn: (v: RuleFields) =>
      api<{ id: string }>(appPath(apiKey, `/${kind}`), {
        method: 'POST',
        body: {
          name: v.name.trim(),
          rule: kind === 'features' ? { selector: v.selector.trim(), ...(v.page ? { page: v.page } : {}) } : { url: v.url.trim() },
        },
      }),
    onSuccess: () => {
      form.reset();
      void client.invalidateQueries({ queryKey: [kind, apiKey] });
      onDone();
    },
    onError: (err) => {
      const field = err instanceof ApiError && err.field ? FORM_FIELD[err.field] : undefined;
      if (field) form.setError(field, { message: err.message });
    },
  });
  // A refusal the form cannot put beside a field (a 409 of too many, the network, the body).
  const shown = add.error && !(add.error instanceof ApiError && add.error.field && FORM_FIELD[add.error.field]) ? add.error : null;
  const errors = form.formState.errors;
  return (
    <form className="card form" aria-label={`New ${words.one}`} onSubmit={form.handleSubmit((v) => add.mutate(v))}>
      <h2>New {words.one}</h2>
      <div className="row">
        <Field label="Name" error={errors.name?.message}>
          <input autoComplete="off" maxLength={200} {...form.register('name', { required: 'A name, please' })} />
        </Field>
        {kind === 'features' ? (
          <>
            <Field label="CSS selector" error={errors.selector?.message} hint="The clicked element or one of its ancestors, e.g. #export-csv or nav .export">
              <input
                className="mono"
                spellCheck={false}
                autoComplete="off"
                {...form.register('selector', {
                  required: 'A selector, please',
                  validate: (s) => isSelector(s.trim()) || 'This is not a CSS selector the browser can read',
                })}
              />
            </Field>
            <Field label="Page (optional)" error={errors.page?.message} hint="Only the clicks on this page">
              <select {...form.register('page')}>
                <option value="">Every page</option>
                {pages.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
          </>
        ) : (
          <Field label="URL rule" error={errors.url?.message} hint="e.g. /reports/:id, //*/settings/**, https://app.example.com/home">
            <input className="mono" spellCheck={false} autoComplete="off" {...form.register('url', { required: 'A URL rule, please' })} />
          </Field>
        )}
      </div>
      {shown && (
        <p className="error" role="alert">
          {shown.message}
        </p>
      )}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : `Add ${words.one}`}
        </button>
        <button
          type="button"
          onClick={() => {
            form.reset();
            onDone();
          }}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
