/**
 * The guide's steps in the designer (issue #15): pick one to edit, add, remove, and reorder them by HTML5 drag
 * and drop (a step dropped on another takes its place) or by the arrow buttons, the keyboard's way.
 */
import { useState } from 'react';
import type { DesignerStep } from './designerGuide';
import type { StepTemplate } from './stepTemplates';

interface Props {
  steps: DesignerStep[];
  current: number;
  onSelect(index: number): void;
  /** Moves the step at `from` to `to` (the others shift); an out-of-range `to` does nothing. */
  onMove(from: number, to: number): void;
  onRemove(index: number): void;
  /** Adds a step: the designer's default, or one made from a plugin's template. */
  onAdd(template?: StepTemplate): void;
  /** The designer plugins' ready-made steps (docs/designer.md "Plugins"); none: no template menu. */
  templates: StepTemplate[];
}

export function StepList({ steps, current, onSelect, onMove, onRemove, onAdd, templates }: Props) {
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  return (
    <fieldset>
      <legend>Steps</legend>
      <ol className="steps">
        {steps.map((s, i) => (
          <li
            key={s.id}
            className={[i === current ? 'current' : '', i === over && dragged !== null && dragged !== i ? 'drop' : ''].join(' ').trim()}
            data-testid="step-item"
            // HTML5 drag and drop; the arrow buttons stay for the keyboard.
            draggable
            onDragStart={(e) => {
              setDragged(i);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', String(i));
            }}
            onDragOver={(e) => {
              if (dragged === null) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
              setOver(i);
            }}
            onDragLeave={() => setOver((o) => (o === i ? null : o))}
            onDrop={(e) => {
              e.preventDefault();
              if (dragged !== null) onMove(dragged, i);
              setDragged(null);
              setOver(null);
            }}
            onDragEnd={() => {
              setDragged(null);
              setOver(null);
            }}
          >
            <span className="grip" aria-hidden="true" title="Drag to reorder">
              ⠿
            </span>
            <button type="button" className="name" aria-current={i === current} onClick={() => onSelect(i)}>
              {i + 1}. {s.title || s.type}
            </button>
            <button type="button" className="icon" aria-label={`Move step ${i + 1} up`} disabled={i === 0} onClick={() => onMove(i, i - 1)}>
              ↑
            </button>
            <button type="button" className="icon" aria-label={`Move step ${i + 1} down`} disabled={i === steps.length - 1} onClick={() => onMove(i, i + 1)}>
              ↓
            </button>
            <button type="button" className="icon" aria-label={`Remove step ${i + 1}`} disabled={steps.length === 1} onClick={() => onRemove(i)}>
              ✕
            </button>
          </li>
        ))}
      </ol>
      <div className="row">
        <button type="button" onClick={() => onAdd()}>
          Add a step
        </button>
        {templates.length > 0 && (
          <select
            aria-label="Add a step from a template"
            value=""
            onChange={(e) => {
              const template = templates.find((t) => t.name === e.target.value);
              if (template) onAdd(template);
            }}
          >
            <option value="">From a template…</option>
            {templates.map((t) => (
              <option key={t.name} value={t.name} title={`from ${t.plugin}`}>
                {t.name}
              </option>
            ))}
          </select>
        )}
      </div>
    </fieldset>
  );
}
