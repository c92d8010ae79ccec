/**
 * The question a step asks (issue #15, guides §2 polls): none, an NPS rating with a reason, a multiple-choice
 * question (one answer among its options), an open-text question, a yes/no question or a number scale with words
 * at both ends. Written by designerPolls.ts.
 */
import { clampScale, newPoll, SCALE_LIMITS, type DesignerPoll, type PollKind } from './designerPolls';
import { replaceAt } from './listEdits';

const KINDS: Array<{ kind: PollKind | 'none'; label: string }> = [
  { kind: 'none', label: 'None' },
  { kind: 'nps', label: 'NPS (0-10, with a reason)' },
  { kind: 'choice', label: 'Multiple choice (one answer)' },
  { kind: 'text', label: 'Open text' },
  { kind: 'yesno', label: 'Yes or no' },
  { kind: 'scale', label: 'Number scale' },
];

interface Props {
  poll: DesignerPoll | null;
  onChange(next: DesignerPoll | null): void;
  /** guides §3 attributes.isRequired: the visitor answers before the step sends or moves on. */
  required: boolean;
  onRequired(required: boolean): void;
}

export function PollEditor({ poll, onChange, required, onRequired }: Props) {
  const setKind = (kind: PollKind | 'none') => onChange(kind === 'none' ? null : newPoll(kind));
  return (
    <fieldset>
      <legend>Question</legend>
      <label>
        Asks
        <select value={poll?.kind ?? 'none'} onChange={(e) => setKind(e.target.value as PollKind | 'none')}>
          {KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      {poll?.kind === 'nps' && (
        <label>
          Reason question
          <input value={poll.reasonLabel} onChange={(e) => onChange({ ...poll, reasonLabel: e.target.value })} />
        </label>
      )}
      {poll && poll.kind !== 'nps' && (
        <label>
          Question text
          <input value={poll.question} onChange={(e) => onChange({ ...poll, question: e.target.value })} />
        </label>
      )}
      {poll?.kind === 'choice' && <OptionsEditor options={poll.options} onChange={(options) => onChange({ ...poll, options })} />}
      {poll?.kind === 'scale' && <ScaleEditor poll={poll} onChange={onChange} />}
      {poll && (
        <label className="inline">
          <input type="checkbox" checked={required} onChange={(e) => onRequired(e.target.checked)} />
          The visitor must answer before sending or going on{poll.kind === 'nps' ? ' (the reason stays optional)' : ''}
        </label>
      )}
      {poll && <p className="muted">A Send button sends the answer; the console shows the answers under the guide's poll results.</p>}
    </fieldset>
  );
}

/** A multiple-choice question's options, in order; empty ones are left out of the step. */
function OptionsEditor({ options, onChange }: { options: string[]; onChange(next: string[]): void }) {
  const set = (i: number, value: string | null) => onChange(replaceAt(options, i, value));
  return (
    <>
      {options.map((option, i) => (
        <div className="row" key={i}>
          <label>
            Option {i + 1}
            <input value={option} onChange={(e) => set(i, e.target.value)} />
          </label>
          <button type="button" className="icon" aria-label={`Remove option ${i + 1}`} disabled={options.length <= 2} onClick={() => set(i, null)}>
            ✕
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...options, ''])}>
        Add an option
      </button>
      {new Set(options.map((o) => o.trim())).size < options.length && <p className="warn">Two options read the same: their answers are counted together.</p>}
    </>
  );
}

type ScalePoll = Extract<DesignerPoll, { kind: 'scale' }>;

/** A number scale's two ends and their words; the numbers stay whole, in order and within the limits. */
function ScaleEditor({ poll, onChange }: { poll: ScalePoll; onChange(next: ScalePoll): void }) {
  const setEnds = (min: number, max: number) => onChange({ ...poll, ...clampScale(min, max) });
  return (
    <>
      <div className="row">
        <label>
          From
          <select value={poll.min} onChange={(e) => setEnds(Number(e.target.value), poll.max)}>
            {numbers(SCALE_LIMITS.lowest, SCALE_LIMITS.highest - 1)}
          </select>
        </label>
        <label>
          To
          <select value={poll.max} onChange={(e) => setEnds(poll.min, Number(e.target.value))}>
            {numbers(poll.min + 1, Math.min(SCALE_LIMITS.highest, poll.min + SCALE_LIMITS.longest - 1))}
          </select>
        </label>
      </div>
      <div className="row">
        <label>
          Words at the low end
          <input value={poll.minLabel} onChange={(e) => onChange({ ...poll, minLabel: e.target.value })} />
        </label>
        <label>
          Words at the high end
          <input value={poll.maxLabel} onChange={(e) => onChange({ ...poll, maxLabel: e.target.value })} />
        </label>
      </div>
    </>
  );
}

/** The options of a number select, `from` to `to`. */
function numbers(from: number, to: number) {
  return Array.from({ length: to - from + 1 }, (_, i) => (
    <option key={from + i} value={from + i}>
      {from + i}
    </option>
  ));
}
