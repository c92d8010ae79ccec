/**
 * A guide in the designer (issue #15): targeting (name, launch method, page rule, priority, throttling, audience), its steps
 * (add, remove, reorder by drag or by buttons, pick one to edit), the chosen step drawn live on the page by the visitor's renderer as the
 * author types, and save, publish, unpublish and preview through the console's API.
 */
import { useEffect, useRef, useState } from 'react';
import type { Guide } from '../../../shared/guides/guides';
import type { GuideTheme } from '../../../shared/surfaces/guideTheme';
import type { StepToShow } from '../../../shared/protocol/guides';
import type { AuthorHost } from '../api';
import { AudienceEditor } from './AudienceEditor';
import { EditorHeader, SaveFooter, useSaving } from './EditorChrome';
import type { ConsoleApi, GuideState } from './consoleApi';
import { LAUNCH_METHODS, newStep, stepContent, toGuide, type DesignerGuide, type DesignerStep } from './designerGuide';
import { StepEditor } from './StepEditor';
import { StepList } from './StepList';
import { stepFromTemplate, type StepTemplate } from './stepTemplates';
import { moveItem } from './listEdits';

interface Props {
  host: AuthorHost;
  api: ConsoleApi;
  initial: DesignerGuide;
  stored: Guide | undefined;
  state: GuideState | undefined;
  onPick(apply: (rule: string) => void): void;
  onPreview(guideId: string): void;
  /** Ready-made steps from the designer's plugins. */
  templates: StepTemplate[];
  onBack(): void;
}

/** How long the live step waits after the last keystroke. */
const LIVE_DELAY_MS = 150;

export function GuideEditor({ host, api, initial, stored, state: initialState, onPick, onPreview, templates, onBack }: Props) {
  const [guide, setGuide] = useState(initial);
  const [current, setCurrent] = useState(0);
  const [state, setState] = useState<GuideState | undefined>(initialState);
  const [base, setBase] = useState(stored);
  const saving = useSaving();
  const step = guide.steps[Math.min(current, guide.steps.length - 1)];

  // The live step in the app's theme, as visitors will see it; Waymark's look until it is read (or if it cannot be).
  const [theme, setTheme] = useState<GuideTheme>({});
  useEffect(() => {
    api.theme().then(setTheme, () => undefined);
  }, [api]);
  const ownTheme = base?.steps.find((s) => s.id === step?.id)?.attributes?.theme;
  useLiveStep(host, guide, step, current, { ...theme, ...ownTheme });

  const setStep = (next: DesignerStep) => setGuide((g) => ({ ...g, steps: g.steps.map((s) => (s.id === next.id ? next : s)) }));
  const move = (from: number, to: number) => {
    const steps = moveItem(guide.steps, from, to);
    if (!steps) return;
    setGuide({ ...guide, steps });
    setCurrent(to);
  };
  const addStep = (template?: StepTemplate) => {
    const added = template ? stepFromTemplate(template, guide.id, guide.steps.length) : newStep(guide.id, guide.steps.length, 'tooltip');
    setGuide({ ...guide, steps: [...guide.steps, added] });
    setCurrent(guide.steps.length);
  };
  const removeStep = (i: number) => {
    if (guide.steps.length === 1) return;
    setGuide({ ...guide, steps: guide.steps.filter((_, j) => j !== i) });
    setCurrent(Math.max(0, i - 1));
  };

  /** Saves the guide as edited; the server runs the agent's own checks on it. */
  const store = async () => {
    const saved = await api.save(toGuide(guide, base));
    setBase(saved.guide);
    setState(saved.state);
  };
  const save = () => saving.run('Saved', store);
  const publish = (next: GuideState, done: string) =>
    saving.run(done, async () => {
      await store();
      setState((await api.setState(guide.id, next)).state);
    });

  return (
    <>
      <EditorHeader title={guide.name || guide.id} state={state} onBack={onBack} />
      <div className="content">
        <fieldset>
          <legend>Guide</legend>
          <label>
            Name
            <input value={guide.name} onChange={(e) => setGuide({ ...guide, name: e.target.value })} />
          </label>
          <label>
            Shows
            <select value={guide.launchMethod} onChange={(e) => setGuide({ ...guide, launchMethod: e.target.value })}>
              {LAUNCH_METHODS.map((m) => (
                <option key={m} value={m}>
                  {LAUNCH_LABELS[m]}
                </option>
              ))}
            </select>
          </label>
          <label>
            On pages matching <span className="muted">(a regular expression of the address; empty: every page)</span>
            <input value={guide.pageRule} spellCheck={false} onChange={(e) => setGuide({ ...guide, pageRule: e.target.value })} />
          </label>
          <div className="row">
            <label>
              Priority
              <input type="number" value={guide.priority} onChange={(e) => setGuide({ ...guide, priority: Number(e.target.value) || 0 })} />
            </label>
            <label className="inline">
              <input type="checkbox" checked={guide.overrideThrottling} onChange={(e) => setGuide({ ...guide, overrideThrottling: e.target.checked })} />
              Ignore throttling
            </label>
          </div>
        </fieldset>
        <AudienceEditor rules={guide.audience} onChange={(audience) => setGuide({ ...guide, audience })} />
        <StepList steps={guide.steps} current={current} onSelect={setCurrent} onMove={move} onRemove={removeStep} onAdd={addStep} templates={templates} />
        {step && (
          <StepEditor
            key={step.id}
            step={step}
            launchMethod={guide.launchMethod}
            query={host.query}
            onChange={setStep}
            onPick={() => onPick((rule) => setStep({ ...step, elementPathRule: rule }))}
          />
        )}
      </div>
      <SaveFooter saving={saving} state={state} onSave={() => void save()} onPublish={(next, done) => void publish(next, done)}>
        <button type="button" disabled={saving.busy} onClick={() => void save().then((ok) => ok && onPreview(guide.id))}>
          Preview
        </button>
      </SaveFooter>
    </>
  );
}

const LAUNCH_LABELS: Record<(typeof LAUNCH_METHODS)[number], string> = {
  auto: 'By itself, when its page opens',
  api: 'Only when the app asks (showGuideById)',
  badge: 'From a badge on the element',
  dom: 'When the visitor uses the element',
  launcher: 'From the launcher',
};

/** Draws the step being edited on the page with the visitor's renderer, a moment after the last change. */
function useLiveStep(host: AuthorHost, guide: DesignerGuide, step: DesignerStep | undefined, index: number, theme: GuideTheme): void {
  const look = JSON.stringify(theme);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void host.overlay().then((overlay) => {
        if (!step) return overlay.hide();
        const target = step.type === 'tooltip' && step.elementPathRule.trim() ? host.query(step.elementPathRule) : null;
        if (step.type === 'tooltip' && !target) return overlay.hide();
        const attributes: Record<string, unknown> = { layoutDir: step.layoutDir };
        if (step.width > 0) attributes.width = step.width;
        if (step.arrowSize > 0) attributes.arrowSize = step.arrowSize;
        if (!step.caret) attributes.caret = false;
        attributes.theme = theme;
        const shown: StepToShow = {
          guideId: guide.id,
          guideName: guide.name,
          stepId: step.id,
          type: step.type,
          stepIndex: index,
          stepCount: guide.steps.length,
          elementPathRule: step.elementPathRule || undefined,
          content: stepContent(step),
          attributes,
          hideCredits: false,
          reason: 'api',
        };
        // The live step answers nothing: its buttons and close are the author's to try in a preview.
        overlay.show(shown, target, { onAction: () => undefined, onDismiss: () => undefined });
      });
    }, LIVE_DELAY_MS);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
    // The theme by value (`look`): a new object of the same theme each render draws nothing again.
  }, [host, guide, step, index, look]);
  useEffect(() => () => void host.overlay().then((o) => o.hide()), [host]);
}
