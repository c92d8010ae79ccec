/**
 * A resource center in the designer (issue #15; guides §2 Resource center): its name, introduction, how it
 * opens, its pages, and its modules in order (a list of the app's guides, onboarding, announcements, a page in
 * an iframe, or text). Drawn open on the page by the visitor's renderer as the author edits, through the agent's
 * own choice of what would show here (or why nothing would). Saved as its module guides and its top-level guide;
 * a module taken out is disabled. Mapping: designerResourceCenter.ts.
 */
import { useEffect, useState } from 'react';
import type { Guide } from '../../../shared/guides/guides';
import type { LauncherPosition } from '../../../shared/protocol';
import type { AuthorHost } from '../api';
import { RESOURCE_CENTER_INTEGRATIONS } from '../../../shared/surfaces/chooseResourceCenter';
import { hasIntegration } from '../../openIntegration';
import type { ConsoleApi, GuideState, GuideSummary } from './consoleApi';
import { EditorHeader, SaveFooter, useSaving } from './EditorChrome';
import {
  MODULE_KINDS,
  moduleIdsOf,
  moduleProblem,
  newModule,
  POSITIONS,
  previewResourceCenter,
  toResourceCenterGuides,
  type DesignerModule,
  type DesignerModuleKind,
  type DesignerResourceCenter,
} from './designerResourceCenter';
import { moveItem, replaceAt } from './listEdits';

interface Props {
  host: AuthorHost;
  api: ConsoleApi;
  initial: DesignerResourceCenter;
  /** The stored guides of the resource center (top-level and modules), by id; empty for a new one. */
  stored: ReadonlyMap<string, Guide>;
  state?: GuideState;
  onBack(): void;
}

export function ResourceCenterEditor({ host, api, initial, stored: initialStored, state: initialState, onBack }: Props) {
  const [rc, setRc] = useState(initial);
  const [stored, setStored] = useState(initialStored);
  const [state, setState] = useState(initialState);
  const saving = useSaving();
  const [guides, setGuides] = useState<GuideSummary[]>([]);
  const listed = useListedGuides(api, rc);
  const verdict = useLivePreview(host, rc, new Map([...stored, ...listed]));

  useEffect(() => {
    api.guides().then(setGuides, () => setGuides([]));
  }, [api]);
  // A resource center and its modules are not guides to list.
  const own = new Set([rc.id, ...rc.modules.map((m) => m.id), ...moduleIdsOf(stored.get(rc.id) ?? {})]);
  const listable = guides.filter((g) => !own.has(g.id));

  const setModule = (i: number, next: DesignerModule | null) => setRc({ ...rc, modules: replaceAt(rc.modules, i, next) });
  const move = (from: number, to: number) => {
    const modules = moveItem(rc.modules, from, to);
    if (modules) setRc({ ...rc, modules });
  };

  async function store(): Promise<void> {
    const next = new Map(stored);
    for (const guide of toResourceCenterGuides(rc, stored)) {
      const saved = await api.save(guide);
      next.set(guide.id, saved.guide);
      if (guide.id === rc.id) setState(saved.state);
    }
    // A module taken out of the resource center stops being served.
    for (const id of moduleIdsOf(stored.get(rc.id) ?? {})) {
      if (!rc.modules.some((m) => m.id === id)) await api.setState(id, 'disabled').catch(() => undefined);
    }
    setStored(next);
  }
  const publish = (next: GuideState, done: string) =>
    saving.run(done, async () => {
      await store();
      for (const m of rc.modules) await api.setState(m.id, next);
      setState((await api.setState(rc.id, next)).state);
    });

  return (
    <>
      <EditorHeader title={rc.name || rc.id} state={state} onBack={onBack} />
      <div className="content">
        <fieldset>
          <legend>Resource center</legend>
          <label>
            Name <span className="muted">(its badge's label and its title)</span>
            <input value={rc.name} onChange={(e) => setRc({ ...rc, name: e.target.value })} />
          </label>
          <label>
            Introduction
            <textarea value={rc.intro} onChange={(e) => setRc({ ...rc, intro: e.target.value })} />
          </label>
          <div className="row">
            <label>
              Opens
              <select value={rc.opens} onChange={(e) => setRc({ ...rc, opens: e.target.value as 'badge' | 'api' })}>
                <option value="badge">From a badge</option>
                <option value="api">Only when the app asks (openResourceCenter)</option>
              </select>
            </label>
            <label>
              Corner
              <select value={rc.position} onChange={(e) => setRc({ ...rc, position: e.target.value as LauncherPosition })}>
                {POSITIONS.map((p) => (
                  <option key={p.position} value={p.position}>
                    {p.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <label>
            On pages matching <span className="muted">(a regular expression of the address; empty: every page)</span>
            <input value={rc.pageRule} spellCheck={false} onChange={(e) => setRc({ ...rc, pageRule: e.target.value })} />
          </label>
        </fieldset>
        <fieldset>
          <legend>Modules</legend>
          {rc.modules.map((m, i) => (
            <ModuleEditor key={m.id} index={i} module={m} count={rc.modules.length} guides={listable} onChange={(next) => setModule(i, next)} onMove={(to) => move(i, to)} />
          ))}
          <button type="button" onClick={() => setRc({ ...rc, modules: [...rc.modules, newModule(rc.id, 'custom')] })}>
            Add a module
          </button>
        </fieldset>
        <p className={'view' in verdict ? 'ok' : 'warn'} role="status" data-testid="rc-check">
          {'view' in verdict ? `On this page: ${shownHere(verdict.view.modules)} of ${rc.modules.length} modules show.` : `Nothing shows on this page: ${verdict.reason}`}
        </p>
      </div>
      <SaveFooter saving={saving} state={state} onSave={() => void saving.run('Saved', store)} onPublish={(next, done) => void publish(next, done)} />
    </>
  );
}

function ModuleEditor({ index, module: m, count, guides, onChange, onMove }: { index: number; module: DesignerModule; count: number; guides: GuideSummary[]; onChange(next: DesignerModule | null): void; onMove(to: number): void }) {
  const problem = moduleProblem(m);
  const n = index + 1;
  const toggle = (id: string, on: boolean) => onChange({ ...m, guideIds: on ? [...m.guideIds, id] : m.guideIds.filter((g) => g !== id) });
  const drafts = guides.filter((g) => m.guideIds.includes(g.id) && g.state !== 'public');
  return (
    <div className="rule" data-testid="rc-module">
      <div className="row">
        <label>
          Module {n} title
          <input value={m.title} readOnly={m.kind === 'kept'} onChange={(e) => onChange({ ...m, title: e.target.value })} />
        </label>
        <button type="button" className="icon" aria-label={`Move module ${n} up`} disabled={index === 0} onClick={() => onMove(index - 1)}>
          ↑
        </button>
        <button type="button" className="icon" aria-label={`Move module ${n} down`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
          ↓
        </button>
        <button type="button" className="icon" aria-label={`Remove module ${n}`} onClick={() => onChange(null)}>
          ✕
        </button>
      </div>
      {m.kind === 'kept' ? (
        <p className="muted">A {m.text} module written by hand: kept as it is (edit it as JSON in the console).</p>
      ) : (
      <label>
        Shows
        <select value={m.kind} onChange={(e) => onChange({ ...m, kind: e.target.value as DesignerModuleKind })}>
          {MODULE_KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      )}
      {(m.kind === 'guideList' || m.kind === 'onboarding' || m.kind === 'announcements') && (
        <fieldset className="checklist" aria-label={`Guides of module ${n}`}>
          {guides.length === 0 && <p className="muted">No other guides yet: write some first.</p>}
          {guides.map((g) => (
            <label className="inline" key={g.id}>
              <input type="checkbox" checked={m.guideIds.includes(g.id)} onChange={(e) => toggle(g.id, e.target.checked)} />
              {g.name}
            </label>
          ))}
        </fieldset>
      )}
      {m.kind === 'iframe' && (
        <label>
          Page address
          <input type="url" value={m.url} placeholder="https://help.example.com/" onChange={(e) => onChange({ ...m, url: e.target.value })} />
        </label>
      )}
      {(m.kind === 'custom' || m.kind === 'sandbox') && (
        <label>
          Text
          <textarea value={m.text} onChange={(e) => onChange({ ...m, text: e.target.value })} />
        </label>
      )}
      {m.kind === 'integration' && (
        <div className="row">
          <label>
            Provider
            <select value={m.provider} onChange={(e) => onChange({ ...m, provider: e.target.value, service: RESOURCE_CENTER_INTEGRATIONS[e.target.value]?.[0] ?? '' })}>
              {Object.keys(RESOURCE_CENTER_INTEGRATIONS).map((p) => (
                <option key={p} value={p}>
                  {p[0]!.toUpperCase() + p.slice(1)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Opens
            <select value={m.service} onChange={(e) => onChange({ ...m, service: e.target.value })}>
              {(RESOURCE_CENTER_INTEGRATIONS[m.provider] ?? []).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      {m.kind === 'integration' &&
        (hasIntegration(window, m.provider) ? (
          <p className="muted">The module opens the page's {m.provider} widget; the badge hides meanwhile.</p>
        ) : (
          <p className="warn">This page has no {m.provider} widget: the module shows on pages that load it.</p>
        ))}
      {problem && <p className="warn">{problem}</p>}
      {drafts.length > 0 && <p className="warn">Not public yet, so visitors do not see them listed: {drafts.map((g) => g.name).join(', ')}.</p>}
    </div>
  );
}

/** How many modules the visitor's renderer draws here: an integration module only beside its provider's widget. */
function shownHere(modules: ReadonlyArray<{ kind: string; integration?: { provider: string } }>): number {
  return modules.filter((m) => m.kind !== 'integration' || hasIntegration(window, m.integration!.provider)).length;
}

/** The guides the modules list, read from the console as they are picked (the live preview judges them). */
function useListedGuides(api: ConsoleApi, rc: DesignerResourceCenter): ReadonlyMap<string, Guide> {
  const [listed, setListed] = useState<ReadonlyMap<string, Guide>>(new Map());
  const wanted = [...new Set(rc.modules.flatMap((m) => m.guideIds))];
  const missing = wanted.filter((id) => !listed.has(id)).join(',');
  useEffect(() => {
    if (!missing) return;
    let live = true;
    void Promise.all(missing.split(',').map((id) => api.guide(id).then((s) => s.guide, () => null))).then((found) => {
      if (!live) return;
      setListed((before) => {
        const next = new Map(before);
        // Shown as the author would see them published.
        for (const g of found) if (g) next.set(g.id, { ...g, state: 'public' });
        return next;
      });
    });
    return () => {
      live = false;
    };
  }, [api, missing]);
  return listed;
}

/** Draws the resource center open on the page, a moment after each change; answers what shows or why not. */
function useLivePreview(host: AuthorHost, rc: DesignerResourceCenter, listed: ReadonlyMap<string, Guide>) {
  const [activeModule, setActiveModule] = useState<string | null>(null);
  const verdict = previewResourceCenter(rc, listed, { url: location.href, device: matchMedia('(pointer: coarse)').matches ? 'mobile' : 'desktop', now: Date.now() });
  const view = 'view' in verdict ? verdict.view : null;
  useEffect(() => {
    const timer = setTimeout(() => {
      void host.overlay().then((overlay) =>
        overlay.showResourceCenter(view, { open: true, activeModule, nativeOpen: false }, {
          onToggle: () => undefined,
          onOpenModule: setActiveModule,
          onOpenGuide: () => undefined,
          onAnnouncementSeen: () => undefined,
          onIntegration: () => undefined,
          onError: (err) => host.log('warn', `the resource center preview failed: ${String(err)}`),
        }),
      );
    }, 150);
    return () => clearTimeout(timer);
  }, [host, JSON.stringify(view), activeModule]);
  useEffect(() => () => void host.overlay().then((o) => o.showResourceCenter(null, { open: false, activeModule: null, nativeOpen: false }, NO_HANDLERS)), [host]);
  return verdict;
}

const NO_HANDLERS = {
  onToggle: () => undefined,
  onOpenModule: () => undefined,
  onOpenGuide: () => undefined,
  onAnnouncementSeen: () => undefined,
  onIntegration: () => undefined,
  onError: () => undefined,
};
