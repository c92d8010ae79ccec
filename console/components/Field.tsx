/**
 * A labelled form field with its hint or its error beside the control. The note is the control's description
 * (aria-describedby), not part of its name: a screen reader says "CSS selector", then the hint or the refusal.
 */
import { Children, cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';

/** Props of {@link Field}. */
export interface FieldProps {
  label: string;
  /** The refusal to show in place of the hint (the server's 400 for this field, or the form's own check). */
  error?: string;
  hint?: string;
  children: ReactNode;
}

/** The label over its control, then the error or the hint. */
export function Field({ label, error, hint, children }: FieldProps) {
  const noteId = useId();
  const note = error ?? hint;
  const described = Children.map(children, (child) =>
    isValidElement(child) && typeof child.type === 'string' && ['input', 'select', 'textarea'].includes(child.type)
      ? cloneElement(child as ReactElement<{ 'aria-describedby'?: string; 'aria-invalid'?: boolean }>, {
          'aria-describedby': note ? noteId : undefined,
          'aria-invalid': error ? true : undefined,
        })
      : child,
  );
  return (
    <div className={`field${error ? ' invalid' : ''}`}>
      <label>
        <span>{label}</span>
        {described}
      </label>
      {note && (
        <small id={noteId} className={error ? 'field-error' : 'muted'} role={error ? 'alert' : undefined}>
          {note}
        </small>
      )}
    </div>
  );
}
