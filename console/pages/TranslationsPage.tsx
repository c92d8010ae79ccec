/**
 * A guide's translations (issue #17 localization; docs/localization.md): the guide in other languages, text by
 * text beside what the author wrote. The collector serves each visitor the guide in their language (their
 * metadata's, else their browser's), and a text left blank in the authored language. A translation keeps the
 * authored structure, actions and styles (translationSlots.ts); saving puts the whole guide back.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import type { DomNode } from '../../shared/guides/guides';
import { isLanguageTag, normalizeLanguage } from '../../shared/guides/languageTags';
import { api, ApiError, appPath } from '../api';
import { QueryState } from '../components/QueryState';
import { useLeaveGuard } from '../components/useLeaveGuard';
import { languagesOfGuide } from '../guideTargeting';
import { textSlots, translatedTexts, withTexts } from '../translationSlots';
import type { GuideBody, StoredGuide } from '../types';
import { useCan } from '../useMe';

type Translations = Record<string, { name?: string; steps: Record<string, { domJson: DomNode }> }>;

interface TranslationForm {
  name: string;
  /** Per step (by position), per text slot. */
  steps: string[][];
}

const translationsOf = (guide: GuideBody): Translations => (guide.translations && typeof guide.translations === 'object' ? (guide.translations as Translations) : {});
const contentOf = (step: GuideBody['steps'][number]) => (step.domJson && typeof step.domJson === 'object' ? (step.domJson as DomNode) : undefined);

/** The page. */
export function TranslationsPage() {
  const { apiKey, guideId } = useParams() as { apiKey: string; guideId: string };
  const path = appPath(apiKey, `/guides/${encodeURIComponent(guideId)}`);
  const guide = useQuery({ queryKey: ['guide', apiKey, guideId], queryFn: () => api<StoredGuide>(path) });
  return (
    <QueryState isPending={guide.isPending} error={guide.error}>
      {guide.data && <TranslationsEditor apiKey={apiKey} path={path} stored={guide.data} />}
    </QueryState>
  );
}

function TranslationsEditor({ apiKey, path, stored }: { apiKey: string; path: string; stored: StoredGuide }) {
  const client = useQueryClient();
  const canEdit = useCan('editor');
  const guide = stored.guide;
  const authored = typeof guide.authoredLanguage === 'string' ? guide.authoredLanguage : 'en';
  const languages = languagesOfGuide(guide).filter((l) => l !== authored);
  const [language, setLanguage] = useState<string | null>(languages[0] ?? null);
  const [adding, setAdding] = useState('');
  const [addProblem, setAddProblem] = useState<string | null>(null);
  // Texts typed in the open language and not saved: a tab switch, adding or removing a language would drop them.
  const [dirty, setDirty] = useState(false);
  const guard = useLeaveGuard(dirty);
  const save = useMutation({
    mutationFn: (body: GuideBody) => api<StoredGuide>(path, { method: 'PUT', body }),
    onSuccess: (next) => client.setQueryData(['guide', apiKey, guide.id], next),
  });
  const put = (translations: Translations) => save.mutate({ ...guide, authoredLanguage: authored, translations });

  const open = (tag: string) => {
    setLanguage(tag);
    setDirty(false);
  };
  const add = () => {
    const tag = adding.trim();
    const taken = [authored, ...languages].some((l) => normalizeLanguage(l) === normalizeLanguage(tag));
    const problem = !isLanguageTag(tag) ? `"${tag}" is not a language tag (fr, pt-BR, zh-Hant)` : taken ? `the guide is already in ${tag}` : null;
    setAddProblem(problem);
    if (problem) return;
    guard.confirm(() => {
      setAdding('');
      open(tag);
      put({ ...translationsOf(guide), [tag]: { steps: {} } });
    });
  };

  return (
    <>
      {guard.dialog}
      <header className="view-head">
        <h1>
          <Link to={`/apps/${encodeURIComponent(apiKey)}/guides`} className="crumb">Guides</Link> /{' '}
          <Link to={`/apps/${encodeURIComponent(apiKey)}/guides/${encodeURIComponent(guide.id)}`} className="crumb">{guide.name ?? guide.id}</Link> / Translations
        </h1>
      </header>
      <p className="muted">
        Written in <strong>{authored}</strong>. Each visitor gets the guide in their language (their metadata's <code>language</code>, else their
        browser's), a text left blank as written.
      </p>
      <div className="toolbar" role="tablist" aria-label="Languages">
        {languages.map((l) => (
          <button key={l} type="button" role="tab" aria-selected={l === language} className={l === language ? 'primary' : ''} onClick={() => l !== language && guard.confirm(() => open(l))}>
            {l}
          </button>
        ))}
        {canEdit && <><input aria-label="New language" placeholder="fr, pt-BR…" value={adding} onChange={(e) => setAdding(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && add()} />
        <button type="button" onClick={add} disabled={!adding.trim() || save.isPending}>
          Add a language
        </button></>}
      </div>
      {addProblem && <p className="field-error" role="alert">{addProblem}</p>}
      {save.error && (
        <div className="error" role="alert">
          {save.error.message}
          {save.error instanceof ApiError && save.error.field ? ` (${save.error.field})` : ''}
        </div>
      )}
      {language && translationsOf(guide)[language] && (
        <LanguageEditor
          key={`${language}@${stored.updatedAt}`}
          guide={guide}
          language={language}
          saving={save.isPending}
          saved={save.isSuccess}
          onDirtyChange={setDirty}
          onSave={(translation) => put({ ...translationsOf(guide), [language]: translation })}
          onRemove={() => {
            const { [language]: _removed, ...rest } = translationsOf(guide);
            setLanguage(Object.keys(rest)[0] ?? null);
            setDirty(false);
            put(rest);
          }}
        />
      )}
      {!languages.length && <p className="muted">No translations yet: add a language.</p>}
    </>
  );
}

function LanguageEditor(props: {
  guide: GuideBody;
  language: string;
  saving: boolean;
  saved: boolean;
  onDirtyChange(dirty: boolean): void;
  onSave(t: Translations[string]): void;
  onRemove(): void;
}) {
  const { guide, language } = props;
  const canEdit = useCan('editor');
  const current = translationsOf(guide)[language]!;
  const read = guide.steps.map((step) => translatedTexts(contentOf(step), current.steps?.[step.id]?.domJson));
  const form = useForm<TranslationForm>({ defaultValues: { name: current.name ?? '', steps: read.map((r) => r.texts) } });
  const values = form.watch('steps');
  const { isDirty } = form.formState;
  const { onDirtyChange } = props;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  const total = read.reduce((n, r) => n + r.texts.length, 0);
  const done = values.reduce((n, texts) => n + texts.filter((t) => t.trim()).length, 0);
  const submit = form.handleSubmit((v) => {
    const steps: Translations[string]['steps'] = {};
    guide.steps.forEach((step, i) => {
      const content = contentOf(step);
      if (content && v.steps[i]?.some((t) => t.trim())) steps[step.id] = { domJson: withTexts(content, v.steps[i]!) };
    });
    props.onSave({ ...(v.name.trim() ? { name: v.name.trim() } : {}), steps });
  });
  return (
    <form className="card form" onSubmit={submit} aria-label={`Translation ${language}`}>
      <div className="toolbar spaced">
        <h2>
          {language}: {done} of {total} texts translated
        </h2>
        {canEdit && (
          <button type="button" className="danger-outline" onClick={props.onRemove}>
            Remove {language}
          </button>
        )}
      </div>
      <label className="field">
        <span>Name ({guide.name ?? guide.id})</span>
        <input {...form.register('name')} placeholder={guide.name ?? ''} />
      </label>
      {guide.steps.map((step, i) => {
        const slots = textSlots(contentOf(step));
        return (
          <fieldset key={step.id} className="step" aria-label={`Step ${i + 1}`}>
            <legend>Step {i + 1}</legend>
            {!contentOf(step) && <p className="muted">Its content is a file (domUrl): translate that file per language.</p>}
            {read[i]!.reshaped && <p className="muted">Its {language} content was written by hand with another structure: saving here replaces it.</p>}
            {slots.map((slot, j) => (
              <label key={j} className="field translation">
                <span className="muted">{slot.kind === 'content' ? slot.text : `${slot.kind}: ${slot.text}`}</span>
                <textarea rows={slot.text.length > 60 ? 3 : 1} aria-label={`Step ${i + 1} text ${j + 1} in ${language}`} placeholder={slot.text} {...form.register(`steps.${i}.${j}`)} />
              </label>
            ))}
          </fieldset>
        );
      })}
      <div className="toolbar">
        {canEdit && (
          <button type="submit" className="primary" disabled={props.saving}>
            {props.saving ? 'Saving…' : `Save ${language}`}
          </button>
        )}
        {props.saved && !form.formState.isDirty && <span className="ok-note" role="status">Saved.</span>}
      </div>
    </form>
  );
}
