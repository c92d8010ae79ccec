/**
 * The guide editor's JSON pane: a monospace text area with line numbers, a JSON syntax error with its line and
 * column, and the guide check's problem with its field, under it.
 */
import { useRef } from 'react';
import type { GuideProblem } from '../../server/guides/checkGuideBody';

/** JSON.parse's outcome, with the line and column of a syntax error. */
export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** Parses `text`; a syntax error says where it is. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const message = (err as Error).message;
    // V8: "... at position 123" or "(line 4 column 7)".
    const lineColumn = /line (\d+) column (\d+)/.exec(message);
    const position = /position (\d+)/.exec(message);
    if (lineColumn) return { ok: false, message: `JSON syntax error at line ${lineColumn[1]}, column ${lineColumn[2]}: ${message}` };
    if (position) {
      const before = text.slice(0, Number(position[1])).split('\n');
      return { ok: false, message: `JSON syntax error at line ${before.length}, column ${before[before.length - 1].length + 1}: ${message}` };
    }
    return { ok: false, message: `JSON syntax error: ${message}` };
  }
}

/** Props of {@link JsonEditor}. */
export interface JsonEditorProps {
  value: string;
  onChange(next: string): void;
  onBlur(): void;
  parsed: Parsed;
  problem: GuideProblem | null;
}

/** The pane. */
export function JsonEditor({ value, onChange, onBlur, parsed, problem }: JsonEditorProps) {
  const gutter = useRef<HTMLPreElement>(null);
  const lines = value.split('\n').length;
  return (
    <div className="json-editor">
      <div className="json-editor-box">
        <pre className="gutter" ref={gutter} aria-hidden="true">
          {Array.from({ length: lines }, (_, i) => i + 1).join('\n')}
        </pre>
        <textarea
          aria-label="Guide JSON"
          spellCheck={false}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      {!parsed.ok ? (
        <p className="field-error" role="alert">{parsed.message}</p>
      ) : problem ? (
        <p className="field-error" role="alert" data-field={problem.field}>
          {problem.field ? <code>{problem.field}</code> : null} {problem.error}
        </p>
      ) : (
        <p className="ok-note">✓ The agent accepts this guide.</p>
      )}
    </div>
  );
}
