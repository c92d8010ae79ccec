/**
 * Step templates: a designer plugin's ready-made steps (docs/designer.md "Plugins"), listed under the step list
 * as "Add a step from a template". A template is plain data from a module we did not write, so every field is
 * checked here and only the designer's own step fields are taken; anything else is refused with a reason the
 * author's console shows. Pure.
 */
import { newStep, STEP_TYPES, type ButtonAction, type DesignerButton, type DesignerStep, type DesignerStepType } from './designerGuide';

export interface StepTemplate {
  /** Shown in the template menu; unique per designer (a later one of the same name replaces it). */
  name: string;
  /** The plugin that added it (its file name), shown with the name. */
  plugin: string;
  step: Partial<Pick<DesignerStep, 'type' | 'title' | 'body' | 'imageUrl' | 'width' | 'layoutDir' | 'buttons'>>;
}

const TEXT_MAX = 2000;
const ACTIONS: readonly ButtonAction[] = ['next', 'previous', 'dismiss', 'link', 'custom'];
const LAYOUTS: ReadonlyArray<DesignerStep['layoutDir']> = ['auto', 'top', 'bottom', 'left', 'right'];

/** A template as a plugin handed it: the checked template, or why it is refused. */
export function readStepTemplate(value: unknown, plugin: string): StepTemplate | string {
  if (!isObject(value)) return 'a step template must be an object { name, step }';
  const { name, step } = value;
  if (typeof name !== 'string' || !name.trim() || name.length > 80) return 'a step template needs a name (1 to 80 characters)';
  if (!isObject(step)) return `step template "${name}": its step must be an object`;
  const out: StepTemplate['step'] = {};
  if (step.type !== undefined) {
    if (!STEP_TYPES.some((t) => t.type === step.type)) return `step template "${name}": unknown step type ${JSON.stringify(step.type)} (${STEP_TYPES.map((t) => t.type).join(', ')})`;
    out.type = step.type as DesignerStepType;
  }
  for (const key of ['title', 'body', 'imageUrl'] as const) {
    const text = step[key];
    if (text === undefined) continue;
    if (typeof text !== 'string' || text.length > TEXT_MAX) return `step template "${name}": ${key} must be text of at most ${TEXT_MAX} characters`;
    out[key] = text;
  }
  if (out.imageUrl && !/^https?:\/\//i.test(out.imageUrl)) return `step template "${name}": imageUrl must be an http(s) address`;
  if (step.width !== undefined) {
    if (typeof step.width !== 'number' || !(step.width >= 120 && step.width <= 1200)) return `step template "${name}": width must be a number from 120 to 1200`;
    out.width = Math.round(step.width);
  }
  if (step.layoutDir !== undefined) {
    if (!LAYOUTS.includes(step.layoutDir as DesignerStep['layoutDir'])) return `step template "${name}": layoutDir must be one of ${LAYOUTS.join(', ')}`;
    out.layoutDir = step.layoutDir as DesignerStep['layoutDir'];
  }
  if (step.buttons !== undefined) {
    if (!Array.isArray(step.buttons) || step.buttons.length > 4) return `step template "${name}": buttons must be a list of at most 4`;
    const buttons: DesignerButton[] = [];
    for (const b of step.buttons as unknown[]) {
      const button = readButton(b);
      if (typeof button === 'string') return `step template "${name}": ${button}`;
      buttons.push(button);
    }
    out.buttons = buttons;
  }
  return { name: name.trim(), plugin, step: out };
}

/** A new step of the guide from a template: the designer's defaults for its type, then the template's fields. */
export function stepFromTemplate(template: StepTemplate, guideId: string, index: number, random?: () => number): DesignerStep {
  const base = newStep(guideId, index, template.step.type ?? 'lightbox', random);
  return { ...base, ...template.step, buttons: (template.step.buttons ?? base.buttons).map((b) => ({ ...b })) };
}

function readButton(value: unknown): DesignerButton | string {
  if (!isObject(value) || typeof value.label !== 'string' || !value.label.trim() || value.label.length > 80) return 'each button needs a label (1 to 80 characters)';
  const action = value.action ?? 'next';
  if (!ACTIONS.includes(action as ButtonAction)) return `button "${value.label}": action must be one of ${ACTIONS.join(', ')}`;
  const button: DesignerButton = { label: value.label, action: action as ButtonAction };
  if (action === 'link') {
    if (typeof value.url !== 'string' || !/^https?:\/\//i.test(value.url)) return `button "${value.label}": a link needs an http(s) url`;
    button.url = value.url;
  }
  if (action === 'custom') {
    if (typeof value.customAction !== 'string' || !value.customAction) return `button "${value.label}": a custom action needs its name (customAction)`;
    button.customAction = value.customAction;
  }
  return button;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
