/**
 * "Tag this feature" (issue #35 "Tagged from the designer too"): on the element picked, a feature's name, its CSS
 * selector (the picker's proposal, editable), "only on this page" (a page of this address's rule, reused when the
 * app has one, made when it has not), and two live counts: the elements the selector matches on this page now
 * (countDeep, the picker's own safe lookup) and the past clicks it would count (the server's feature preview over
 * the last 30 days). Saving makes the feature as the signed-in author (an editor) and links to its console page.
 */
import { useEffect, useState } from 'react';
import type { FeaturePreview } from '../../../shared/api/rules';
import type { AuthorHost } from '../api';
import { ApiError, type ConsoleApi } from './consoleApi';
import { consoleFeatureUrl, pageNameOf, pageRuleOf } from './designerFeature';
import { countDeep } from './pickElement';

/** How long the selector must rest before the server is asked for its past clicks. */
const PREVIEW_DELAY_MS = 400;

interface Props {
  host: AuthorHost;
  api: ConsoleApi;
  baseUrl: string;
  /** The picked element's proposed selector. */
  selector: string;
  /** Picks another element (its proposal replaces the selector). */
  onPick(apply: (rule: string) => void): void;
  onBack(): void;
}

type Past = { kind: 'asking' } | { kind: 'counted'; preview: FeaturePreview } | { kind: 'refused'; message: string };

/** The form, its live counts and, once saved, the link to the feature. */
export function TagFeature({ host, api, baseUrl, selector: proposed, onPick, onBack }: Props) {
  const [name, setName] = useState('');
  const [selector, setSelector] = useState(proposed);
  const [onlyHere, setOnlyHere] = useState(false);
  const [here, setHere] = useState(0);
  const [past, setPast] = useState<Past>({ kind: 'asking' });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [saved, setSaved] = useState<{ id: string; name: string } | null>(null);
  const pageRule = pageRuleOf(location.href);

  useEffect(() => {
    // The page changes under the designer: the count on it is read again while the form is shown.
    const read = () => setHere(selector.trim() ? countDeep(document, selector.trim()) : 0);
    read();
    const timer = setInterval(read, 1000);
    return () => clearInterval(timer);
  }, [selector]);

  useEffect(() => {
    const wanted = selector.trim();
    if (!wanted) return setPast({ kind: 'refused', message: 'A selector, please' });
    let live = true;
    setPast({ kind: 'asking' });
    const timer = setTimeout(() => {
      api.previewFeature(wanted, onlyHere ? pageRule : undefined).then(
        (preview) => live && setPast({ kind: 'counted', preview }),
        (err: Error) => live && setPast({ kind: 'refused', message: err.message }),
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, selector, onlyHere, pageRule]);

  async function save(): Promise<void> {
    setSaving(true);
    setError(null);
    try {
      let page: string | undefined;
      if (onlyHere) {
        page = (await api.pages()).find((p) => p.rule.url === pageRule)?.id;
        page ??= (await api.createPage(pageNameOf(document.title, pageRule), pageRule)).id;
      }
      const made = await api.createFeature(name.trim(), { selector: selector.trim(), ...(page ? { page } : {}) });
      setSaved({ id: made.id, name: name.trim() });
    } catch (err) {
      setError({ message: (err as Error).message, field: err instanceof ApiError ? err.field : undefined });
    } finally {
      setSaving(false);
    }
  }

  if (saved) {
    return (
      <div className="content" data-testid="designer-tagged">
        <p className="notice ok" role="status">
          Feature “{saved.name}” saved. Its past clicks are being counted in the console.
        </p>
        <a href={consoleFeatureUrl(baseUrl, host.apiKey, saved.id)} target="_blank" rel="noopener">
          Open {saved.name} in the console
        </a>
        <button type="button" onClick={onBack}>
          Back to the guides
        </button>
      </div>
    );
  }
  const fieldError = (field: string) => (error?.field === field ? error.message : undefined);
  const otherError = error && !['name', 'rule.selector'].includes(error.field ?? '') ? error.message : undefined;
  return (
    <form
      className="content"
      aria-label="Tag this feature"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        Feature name
        <input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} aria-invalid={fieldError('name') ? true : undefined} autoFocus />
        {fieldError('name') && <span className="error">{fieldError('name')}</span>}
      </label>
      <label>
        CSS selector
        <input value={selector} maxLength={1000} onChange={(e) => setSelector(e.target.value)} aria-invalid={fieldError('rule.selector') ? true : undefined} />
        {fieldError('rule.selector') && <span className="error">{fieldError('rule.selector')}</span>}
      </label>
      <button type="button" className="link" onClick={() => onPick(setSelector)}>
        Pick another element
      </button>
      <label className="inline">
        <input type="checkbox" checked={onlyHere} onChange={(e) => setOnlyHere(e.target.checked)} />
        Only on this page <code className="muted">{pageRule}</code>
      </label>
      <div className="notice" aria-live="polite" data-testid="tag-counts">
        <div className={here === 0 ? 'warn' : undefined}>
          {here === 1 ? '1 element on this page matches now' : `${here} elements on this page match now`}
        </div>
        <div>
          {past.kind === 'asking' && <span className="muted">Counting past clicks…</span>}
          {past.kind === 'counted' && (
            <span>
              {past.preview.clicks} past {past.preview.clicks === 1 ? 'click' : 'clicks'} by {past.preview.visitors} {past.preview.visitors === 1 ? 'visitor' : 'visitors'} in the last 30 days
              {past.preview.partial ? ' (of the first 20,000 elements clicked)' : ''}
            </span>
          )}
          {past.kind === 'refused' && <span className="error">{past.message}</span>}
        </div>
      </div>
      {otherError && (
        <p className="notice error" role="alert">
          {otherError}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={saving || !name.trim() || !selector.trim()}>
          {saving ? 'Saving…' : 'Save feature'}
        </button>
        <button type="button" onClick={onBack}>
          Cancel
        </button>
      </div>
    </form>
  );
}
