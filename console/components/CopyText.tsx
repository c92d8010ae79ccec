/** A value to hand on (an invitation link, a new token) with a Copy button and what the clipboard did. */
import { useState } from 'react';

/** Props of {@link CopyText}. */
export interface CopyTextProps {
  value: string;
  /** The accessible name of the value's box. */
  label: string;
}

/** The value, selectable, and Copy. */
export function CopyText({ value, label }: CopyTextProps) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  return (
    <div className="copy-text">
      <input className="mono" readOnly aria-label={label} value={value} onFocus={(e) => e.currentTarget.select()} />
      <button type="button" onClick={() => void copy()}>
        Copy
      </button>
      {copied && (
        <span role="status" className={copied === 'yes' ? 'ok-note' : 'error'}>
          {copied === 'yes' ? 'Copied.' : 'The browser refused the clipboard: select the text and copy it.'}
        </span>
      )}
    </div>
  );
}
