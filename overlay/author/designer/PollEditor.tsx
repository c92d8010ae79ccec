/**
 * The question a step asks (issue #15, guides §2 polls): none, an NPS rating with a reason, a multiple-choice
 * question (one answer among its options) or an open-text question. Written by designerPolls.ts.
 */
import { newPoll, type DesignerPoll, type PollKind } from './designerPolls';

const KINDS: Array<{ kind: PollKind | 'none'; label: string }> = [
  { kind: 'none', label: 'None' },
  { kind: 'nps', label: 'NPS (0-10, with a reason)' },
  { kind: 'choice', label: 'Multiple choice (one answer)' },
  { kind: 'text', label: 'Open text' },
];

export function PollEditor({ poll, onChange }: { poll: DesignerPoll | null; onChange(next: DesignerPoll | null): void }) {
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
      {(poll?.kind === 'choice' || poll?.kind === 'text') && (
        <label>
          Question text
          <input value={poll.question} onChange={(e) => onChange({ ...poll, question: e.target.value })} />
        </label>
      )}
      {poll?.kind === 'choice' && <OptionsEditor options={poll.options} onChange={(options) => onChange({ ...poll, options })} />}
      {poll && <p className="muted">A Send button sends the answer; the console shows the answers under the guide's poll results.</p>}
    </fieldset>
  );
}

/** A multiple-choice question's options, in order; empty ones are left out of the step. */
function OptionsEditor({ options, onChange }: { options: string[]; onChange(next: string[]): void }) {
  const set = (i: number, value: string | null) => {
    const next = [...options];
    if (value === null) next.splice(i, 1);
    else next[i] = value;
    onChange(next);
  };
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
