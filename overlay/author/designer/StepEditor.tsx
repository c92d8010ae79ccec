/**
 * One step in the designer (issue #15): its type, the element it points at (picked on the page or written by
 * hand, with the match count and warnings live) and its text rules, its title, body, image and buttons, a
 * tooltip's placement and caret, a what's-new item's date, and the question it asks (PollEditor).
 */
import { useEffect, useState } from 'react';
import { STEP_TYPES, type ButtonAction, type DesignerButton, type DesignerStep, type DesignerStepType } from './designerGuide';
import { checkRule } from './proposeRule';
import { countDeep, countInFrames } from './pickElement';
import { ContainsRulesEditor } from './ContainsRulesEditor';
import { PollEditor } from './PollEditor';
import { replaceAt } from './listEdits';

const ACTIONS: Array<{ action: ButtonAction; label: string }> = [
  { action: 'next', label: 'Next step (or finish)' },
  { action: 'previous', label: 'Previous step' },
  { action: 'dismiss', label: 'Dismiss the guide' },
  { action: 'link', label: 'Open a link' },
  { action: 'custom', label: "Run your app's custom action" },
];

interface Props {
  step: DesignerStep;
  /** The guide's launch method: a what's-new item is listed only by a launcher. */
  launchMethod: string;
  /** The agent's element lookup (shadow roots included). */
  query(rule: string): Element | null;
  onChange(next: DesignerStep): void;
  onPick(): void;
}

export function StepEditor({ step, launchMethod, query, onChange, onPick }: Props) {
  const set = <K extends keyof DesignerStep>(key: K, value: DesignerStep[K]) => onChange({ ...step, [key]: value });
  const [check, setCheck] = useState(() => checkRule(step.elementPathRule, countDeep(document, step.elementPathRule)));
  const [inFrames, setInFrames] = useState(0);
  useEffect(() => {
    // The page changes under the designer too: the count is read again while the rule is shown.
    const read = () => {
      const rule = step.elementPathRule.trim();
      const here = rule ? countDeep(document, rule) : 0;
      setInFrames(rule && here === 0 ? countInFrames(rule) : 0);
      setCheck(checkRule(step.elementPathRule, here));
    };
    read();
    const timer = setInterval(read, 1000);
    return () => clearInterval(timer);
  }, [step.elementPathRule]);
  const anchored = step.type === 'tooltip';

  const setButton = (i: number, next: DesignerButton | null) => set('buttons', replaceAt(step.buttons, i, next));

  return (
    <fieldset>
      <legend>Step</legend>
      <label>
        Type
        <select value={step.type} onChange={(e) => set('type', e.target.value as DesignerStepType)}>
          {STEP_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      {anchored && (
        <>
          <div className="row">
            <label>
              Element
              <input value={step.elementPathRule} placeholder="#save-button" spellCheck={false} onChange={(e) => set('elementPathRule', e.target.value)} />
            </label>
            <button type="button" onClick={onPick}>
              Pick element
            </button>
          </div>
          {inFrames > 0 ? (
            <p className="ok" role="status" data-testid="rule-check">
              Matches {inFrames} element{inFrames === 1 ? '' : 's'} in a frame of this page: the agent in that frame shows the step
            </p>
          ) : (
            <p className={check.warnings.length ? 'warn' : 'ok'} role="status" data-testid="rule-check">
              {step.elementPathRule.trim() ? `Matches ${check.matches} element${check.matches === 1 ? '' : 's'} on this page` : 'No element yet'}
              {check.warnings.map((w) => (
                <span key={w}>. {w[0]!.toUpperCase() + w.slice(1)}</span>
              ))}
            </p>
          )}
          <label>
            Placement
            <select value={step.layoutDir} onChange={(e) => set('layoutDir', e.target.value as DesignerStep['layoutDir'])}>
              {(['auto', 'top', 'bottom', 'left', 'right'] as const).map((d) => (
                <option key={d} value={d}>
                  {d === 'auto' ? 'Automatic' : d[0]!.toUpperCase() + d.slice(1)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Caret gap (px) <span className="muted">(between the element and the tooltip; empty: 15)</span>
            <input type="number" min={0} max={60} value={step.arrowSize || ''} onChange={(e) => set('arrowSize', Math.max(0, Number(e.target.value) || 0))} />
          </label>
          <label className="inline">
            <input type="checkbox" checked={step.caret} onChange={(e) => set('caret', e.target.checked)} />
            Draw the caret (the arrow pointing at the element)
          </label>
          <label>
            Moves on
            <select value={step.advance} onChange={(e) => set('advance', e.target.value as DesignerStep['advance'])}>
              <option value="buttons">With its buttons</option>
              <option value="click">Also when the visitor clicks the element</option>
              <option value="hover">Also when the visitor points at the element</option>
            </select>
          </label>
          <ContainsRulesEditor rules={step.containsRules} elementPathRule={step.elementPathRule} query={query} onChange={(rules) => set('containsRules', rules)} />
        </>
      )}
      {step.type === 'whatsnew' && !/(^|[-,\s])launcher($|[-,\s])/.test(launchMethod) && (
        <p className="warn" role="status">
          A what's-new item is listed by the launcher: choose "From the launcher" under Shows (and turn the launcher's what's new on in the console's settings).
        </p>
      )}
      <label>
        Title
        <input value={step.title} onChange={(e) => set('title', e.target.value)} />
      </label>
      {step.type === 'whatsnew' && (
        <label>
          Date <span className="muted">(shown under the title)</span>
          <input value={step.date} placeholder="2025-03-01" onChange={(e) => set('date', e.target.value)} />
        </label>
      )}
      <label>
        Text
        <textarea aria-label="Text" value={step.body} onChange={(e) => set('body', e.target.value)} />
      </label>
      <label>
        Image address <span className="muted">(optional)</span>
        <input type="url" value={step.imageUrl} placeholder="https://…" onChange={(e) => set('imageUrl', e.target.value)} />
      </label>
      <PollEditor poll={step.poll} onChange={(poll) => set('poll', poll)} required={step.required} onRequired={(required) => set('required', required)} />
      {step.type !== 'banner' && step.type !== 'whatsnew' && (
        <label>
          Width (px)
          <input type="number" min={120} max={1200} value={step.width || ''} onChange={(e) => set('width', Number(e.target.value) || 0)} />
        </label>
      )}
      {step.buttons.map((b, i) => (
        <fieldset key={i}>
          <legend>Button {i + 1}</legend>
          <div className="row">
            <label>
              Label
              <input value={b.label} onChange={(e) => setButton(i, { ...b, label: e.target.value })} />
            </label>
            <button type="button" className="icon" aria-label={`Remove button ${i + 1}`} onClick={() => setButton(i, null)}>
              ✕
            </button>
          </div>
          <label>
            Action
            <select value={b.action} onChange={(e) => setButton(i, { ...b, action: e.target.value as ButtonAction })}>
              {ACTIONS.map((a) => (
                <option key={a.action} value={a.action}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          {b.action === 'link' && (
            <label>
              Link
              <input type="url" value={b.url ?? ''} placeholder="https://…" onChange={(e) => setButton(i, { ...b, url: e.target.value })} />
            </label>
          )}
          {b.action === 'custom' && (
            <label>
              Custom action
              <input value={b.customAction ?? ''} placeholder="openChat" onChange={(e) => setButton(i, { ...b, customAction: e.target.value })} />
              <small>The name your app gave to waymark.addCustomAction(name, fn).</small>
            </label>
          )}
        </fieldset>
      ))}
      <button type="button" onClick={() => set('buttons', [...step.buttons, { label: 'Next', action: 'next' }])}>
        Add a button
      </button>
    </fieldset>
  );
}
