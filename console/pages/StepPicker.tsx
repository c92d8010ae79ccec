/**
 * A picker of one step of product analytics (issue #35; the step form of shared/api/retention's AnalyticsStep): any
 * event (where the question allows it), one of the app's features or pages by name, a track event by its name, or a
 * guide seen or completed (where the question allows it). A controlled fieldset: the form that holds it keeps a
 * StepDraft (react-hook-form's Controller) and sends stepOfDraft's step.
 */
import type { AnalyticsStep, Feature, Page } from '../types';

/** What a step counts, as its picker offers it. */
export type StepKind = 'any' | 'feature' | 'page' | 'track' | 'guide';

/** A step being picked: its kind and the feature id, page id, track name or guide id. */
export interface StepDraft {
  kind: StepKind;
  value: string;
  /** A guide step's event. */
  event?: 'seen' | 'completed';
}

/** The draft of "any event". */
export const ANY_STEP: StepDraft = { kind: 'any', value: '' };

const KIND_LABELS: Record<StepKind, string> = { any: 'Any event', feature: 'A feature', page: 'A page', track: 'A track event', guide: 'A guide' };

/** The step a draft asks for; undefined for any event. */
export function stepOfDraft(draft: StepDraft): AnalyticsStep | undefined {
  switch (draft.kind) {
    case 'any': return undefined;
    case 'feature': return { feature: draft.value };
    case 'page': return { page: draft.value };
    case 'track': return { track: draft.value.trim() };
    case 'guide': return { guide: draft.value, event: draft.event ?? 'seen' };
  }
}

/** Why a draft cannot be asked yet (react-hook-form's validate), or true. */
export function checkDraft(draft: StepDraft): true | string {
  if (draft.kind === 'any' || draft.value.trim()) return true;
  return { feature: 'Pick a feature (add one under Features)', page: 'Pick a page (add one under Pages)', track: 'Name a track event', guide: 'Pick a guide' }[draft.kind];
}

/** Props of {@link StepPicker}. */
export interface StepPickerProps {
  /** The fieldset's legend, and the start of its controls' names ("Start: feature"). */
  label: string;
  value: StepDraft;
  onChange(next: StepDraft): void;
  /** The kinds offered, in order. */
  kinds: readonly StepKind[];
  features: readonly Feature[];
  pages: readonly Page[];
  /** Guides offered by a guide step: id and name. */
  guides?: ReadonlyArray<{ id: string; name: string }>;
  /** The refusal shown under it (the form's check, or the server's 400 for this step). */
  error?: string;
  hint?: string;
}

/** The kind, then the definition (or name) of that kind. */
export function StepPicker({ label, value, onChange, kinds, features, pages, guides = [], error, hint }: StepPickerProps) {
  // Picking a kind picks its first definition, so a choice is always one the server knows.
  const firstOf = (kind: StepKind) => (kind === 'feature' ? features[0]?.id : kind === 'page' ? pages[0]?.id : kind === 'guide' ? guides[0]?.id : undefined) ?? '';
  const options = value.kind === 'feature' ? features : value.kind === 'page' ? pages : value.kind === 'guide' ? guides : [];
  const note = error ?? hint;
  return (
    <fieldset className={`step-picker${error ? ' invalid' : ''}`}>
      <legend>{label}</legend>
      <div className="row">
        <select
          aria-label={`${label}: kind`}
          value={value.kind}
          onChange={(e) => {
            const kind = e.target.value as StepKind;
            onChange({ kind, value: firstOf(kind), ...(kind === 'guide' ? { event: 'seen' as const } : {}) });
          }}
        >
          {kinds.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]}
            </option>
          ))}
        </select>
        {(value.kind === 'feature' || value.kind === 'page' || value.kind === 'guide') && (
          <select aria-label={`${label}: ${value.kind}`} value={value.value} onChange={(e) => onChange({ ...value, value: e.target.value })}>
            <option value="" disabled>
              {options.length === 0 ? `No ${value.kind}s in this app yet` : `Pick a ${value.kind}…`}
            </option>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        )}
        {value.kind === 'guide' && (
          <select aria-label={`${label}: guide event`} value={value.event ?? 'seen'} onChange={(e) => onChange({ ...value, event: e.target.value as 'seen' | 'completed' })}>
            <option value="seen">seen</option>
            <option value="completed">completed</option>
          </select>
        )}
        {value.kind === 'track' && (
          <input
            aria-label={`${label}: track event name`}
            placeholder="Track event name"
            maxLength={200}
            autoComplete="off"
            value={value.value}
            onChange={(e) => onChange({ ...value, value: e.target.value })}
          />
        )}
      </div>
      {note && (
        <small className={error ? 'field-error' : 'muted'} role={error ? 'alert' : undefined}>
          {note}
        </small>
      )}
    </fieldset>
  );
}
