/**
 * Paths (issue #35 "Funnels, paths, retention"): what visitors did after (or before) a page, a feature or a track
 * event, over the range picked: the flow diagram (components/PathsFlow) and the same steps as a table, level by level.
 * The question lives in the URL (`?start=page:<id>&dir=next&depth=3&top=8`, beside the range) so a view can be shared
 * and survives a reload; the form (react-hook-form) writes it there, the server's 400 shown beside the field it names.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, ApiError, appPath } from '../api';
import { Field } from '../components/Field';
import { PathsFlow, stepLabel } from '../components/PathsFlow';
import { Empty, QueryState } from '../components/QueryState';
import { RangePicker } from '../components/RangePicker';
import { Stat } from '../components/Stat';
import { formatCount } from '../format';
import type { Feature, Page, PathDirection, PathsAnswer } from '../types';
import { useRange } from '../useRange';
import { consolePath, useDefinitions } from './RuleActions';

/** What a path may start from, as the form offers it. */
type StartKind = 'page' | 'feature' | 'track';

/** The question as the URL and the form hold it. */
interface PathsFields {
  kind: StartKind;
  /** A page's or a feature's id. */
  ref: string;
  track: string;
  direction: PathDirection;
  depth: string;
  top: string;
}

const DEPTHS = ['1', '2', '3', '4', '5'];
const TOPS = ['3', '5', '8', '12', '20'];

/** The question in the URL: `start=<kind>:<id or name>`, `dir`, `depth`, `top`; undefined without a start. */
function readQuestion(params: URLSearchParams): PathsFields | undefined {
  const start = params.get('start') ?? '';
  const colon = start.indexOf(':');
  const kind = start.slice(0, colon) as StartKind;
  const value = start.slice(colon + 1);
  if (colon < 0 || !['page', 'feature', 'track'].includes(kind) || !value) return undefined;
  return {
    kind,
    ref: kind === 'track' ? '' : value,
    track: kind === 'track' ? value : '',
    direction: params.get('dir') === 'previous' ? 'previous' : 'next',
    depth: DEPTHS.includes(params.get('depth') ?? '') ? params.get('depth')! : '3',
    top: params.get('top') ?? '8',
  };
}

/** The server's field names (400 `field`) -> the form's. */
const FORM_FIELD: Record<string, keyof PathsFields> = {
  start: 'kind',
  'start.page': 'ref',
  'start.feature': 'ref',
  'start.track': 'track',
  direction: 'direction',
  depth: 'depth',
  top: 'top',
};

/** The Paths screen. */
export function PathsPage() {
  const apiKey = useParams().apiKey!;
  const [range, setRange] = useRange();
  const [params, setParams] = useSearchParams();
  const pages = useDefinitions<Page>(apiKey, 'pages');
  const features = useDefinitions<Feature>(apiKey, 'features');
  const question = readQuestion(params);
  const body = question && {
    start: question.kind === 'track' ? { track: question.track } : { [question.kind]: question.ref },
    direction: question.direction,
    depth: Number(question.depth),
    top: Number(question.top),
    from: range.from,
    to: range.to,
  };
  const answer = useQuery({
    queryKey: ['paths', apiKey, body],
    queryFn: () => api<PathsAnswer>(appPath(apiKey, '/paths'), { method: 'POST', body }),
    enabled: body !== undefined,
    retry: false,
  });
  const ask = (fields: PathsFields) => {
    const copy = new URLSearchParams(params);
    copy.set('start', `${fields.kind}:${fields.kind === 'track' ? fields.track : fields.ref}`);
    copy.set('dir', fields.direction);
    copy.set('depth', fields.depth);
    copy.set('top', fields.top);
    setParams(copy, { replace: true });
  };
  // A refusal naming a field is shown beside it; the others above the diagram.
  const refusal = answer.error instanceof ApiError && answer.error.field ? FORM_FIELD[answer.error.field] : undefined;
  return (
    <>
      <header className="view-head">
        <h1>Paths</h1>
        <RangePicker range={range} onChange={setRange} />
      </header>
      <p className="muted">
        The most common steps after (or before) a page, a feature or a track event, within a visitor&apos;s session. A page load reads as the
        first of the app&apos;s pages whose rule matches it, else as its path; a click as the first feature matching it (other clicks are left out).
      </p>
      <PathsForm
        pages={pages.data ?? []}
        features={features.data ?? []}
        question={question}
        onAsk={ask}
        refusal={refusal && answer.error ? { field: refusal, message: answer.error.message } : undefined}
      />
      {!question ? (
        <Empty>
          <h2>Pick where the paths start</h2>
          <p>A page, a feature or a track event; then Show paths.</p>
        </Empty>
      ) : (
        <QueryState isPending={answer.isPending} error={refusal ? null : answer.error}>
          {answer.data && <PathsResult apiKey={apiKey} answer={answer.data} />}
        </QueryState>
      )}
    </>
  );
}

/** Props of {@link PathsForm}. */
interface PathsFormProps {
  pages: Page[];
  features: Feature[];
  question: PathsFields | undefined;
  onAsk(fields: PathsFields): void;
  refusal?: { field: keyof PathsFields; message: string };
}

/** The start (kind, then a page, a feature or a track name), the direction, the depth and the steps kept per level. */
function PathsForm({ pages, features, question, onAsk, refusal }: PathsFormProps) {
  const form = useForm<PathsFields>({
    defaultValues: question ?? { kind: 'page', ref: '', track: '', direction: 'next', depth: '3', top: '8' },
  });
  const kind = form.watch('kind');
  const choices = kind === 'page' ? pages : kind === 'feature' ? features : [];
  const ref = form.watch('ref');
  // The first page (feature) is the default start once the lists are read, or when the kind changes.
  useEffect(() => {
    if (kind !== 'track' && !choices.some((c) => c.id === ref)) form.setValue('ref', choices[0]?.id ?? '');
  }, [kind, choices, ref, form]);
  const errorOf = (field: keyof PathsFields) => form.formState.errors[field]?.message ?? (refusal?.field === field ? refusal.message : undefined);
  return (
    <form className="card paths-form" aria-label="Paths question" onSubmit={form.handleSubmit(onAsk)}>
      <Field label="Start from" error={errorOf('kind')}>
        <select {...form.register('kind')}>
          <option value="page">a page</option>
          <option value="feature">a feature</option>
          <option value="track">a track event</option>
        </select>
      </Field>
      {kind === 'track' ? (
        <Field label="Track event name" error={errorOf('track')}>
          <input {...form.register('track', { required: 'the name of a track event', maxLength: { value: 200, message: 'at most 200 characters' } })} />
        </Field>
      ) : (
        <Field
          label={kind === 'page' ? 'Page' : 'Feature'}
          error={errorOf('ref')}
          hint={choices.length === 0 ? `no ${kind}s in this app yet: add one on the ${kind === 'page' ? 'Pages' : 'Features'} screen` : undefined}
        >
          <select {...form.register('ref', { required: `pick a ${kind}` })}>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field label="Direction" error={errorOf('direction')}>
        <select {...form.register('direction')}>
          <option value="next">steps after it</option>
          <option value="previous">steps before it</option>
        </select>
      </Field>
      <Field label="Steps" error={errorOf('depth')}>
        <select {...form.register('depth')}>
          {DEPTHS.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Kept per level" error={errorOf('top')}>
        <select {...form.register('top')}>
          {[...new Set([...TOPS, question?.top ?? '8'])].map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" className="primary">
        Show paths
      </button>
    </form>
  );
}

/** The totals, the diagram and the table of one answer; an empty state when the start never happened. */
function PathsResult({ apiKey, answer }: { apiKey: string; answer: PathsAnswer }) {
  if (answer.occurrences === 0) {
    return (
      <Empty>
        <h2>No paths in this range</h2>
        <p>{answer.start.label} did not happen between these dates (or only in sessions the range cuts). Pick a wider range or another start.</p>
      </Empty>
    );
  }
  const after = answer.direction === 'next';
  return (
    <>
      <section className="stats" aria-label="Totals">
        <Stat label={`Times ${answer.start.label} happened`} value={formatCount(answer.occurrences)} hint="Each occurrence begins a path" />
        <Stat label="Visitors" value={formatCount(answer.visitors)} />
      </section>
      <section className="card">
        <h2>
          {after ? 'After' : 'Before'} {answer.start.label}: {answer.depth} step{answer.depth === 1 ? '' : 's'}
        </h2>
        <PathsFlow apiKey={apiKey} answer={answer} />
      </section>
      <section className="card">
        <h2>Steps by level</h2>
        <PathsTable apiKey={apiKey} answer={answer} />
      </section>
    </>
  );
}

/** The nodes as a table: level, step (a link for a page or a feature), paths, share of the start's, visitors. */
function PathsTable({ apiKey, answer }: { apiKey: string; answer: PathsAnswer }) {
  const word = answer.direction === 'next' ? 'after' : 'before';
  return (
    <table className="table" aria-label="Steps by level">
      <thead>
        <tr>
          <th>Level</th>
          <th>Step</th>
          <th className="num">Paths</th>
          <th className="num">Share</th>
          <th className="num">Visitors</th>
        </tr>
      </thead>
      <tbody>
        {answer.nodes.map((node) => (
          <tr key={node.id} aria-label={`${node.level}: ${stepLabel(node, answer.direction)}`}>
            <td>{node.level === 0 ? 'start' : `${node.level} ${word}`}</td>
            <td>
              {node.ref !== undefined && (node.kind === 'page' || node.kind === 'feature') ? (
                <Link to={consolePath(apiKey, node.kind === 'page' ? 'pages' : 'features', node.ref)}>{node.label}</Link>
              ) : (
                <span className={node.kind === 'other' || node.kind === 'end' ? 'muted' : undefined}>{stepLabel(node, answer.direction)}</span>
              )}
            </td>
            <td className="num">{formatCount(node.count)}</td>
            <td className="num">{`${Math.round((node.count / answer.occurrences) * 1000) / 10}%`}</td>
            <td className="num">{formatCount(node.visitors)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
