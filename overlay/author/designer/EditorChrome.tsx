/**
 * What the designer's two editors (GuideEditor, ResourceCenterEditor) share: the header (back, name, state), and
 * the footer that saves and publishes through the console's API, with the server's answer (`{ error, field }`)
 * shown under it. `useSaving` runs one such call at a time.
 */
import { useState, type ReactNode } from 'react';
import type { ApiError, GuideState } from './consoleApi';

export interface Saving {
  busy: boolean;
  message: { text: string; error?: boolean; field?: string } | null;
  /** Runs `fn`, then says `done`, or the server's error with its field; answers whether it went through. */
  run(done: string, fn: () => Promise<void>): Promise<boolean>;
}

export function useSaving(): Saving {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Saving['message']>(null);
  async function run(done: string, fn: () => Promise<void>): Promise<boolean> {
    setBusy(true);
    setMessage(null);
    try {
      await fn();
      setMessage({ text: done });
      return true;
    } catch (err) {
      const e = err as ApiError;
      setMessage({ text: e.message, error: true, field: e.field });
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, message, run };
}

export function EditorHeader({ title, state, onBack }: { title: string; state?: GuideState; onBack(): void }) {
  return (
    <header>
      <button type="button" className="icon" aria-label="Back to the guide list" onClick={onBack}>
        ←
      </button>
      <h1>{title}</h1>
      {state && <span className={`badge ${state}`}>{state}</span>}
    </header>
  );
}

/** Save, and Publish or Unpublish by the state; `children` are the editor's own buttons after them. */
export function SaveFooter({ saving, state, onSave, onPublish, children }: { saving: Saving; state?: GuideState; onSave(): void; onPublish(next: GuideState, done: string): void; children?: ReactNode }) {
  const { busy, message } = saving;
  return (
    <footer>
      {message && (
        <p className={message.error ? 'notice error' : 'notice'} role={message.error ? 'alert' : 'status'} style={{ width: '100%', margin: 0 }}>
          {message.text}
          {message.field ? ` (${message.field})` : ''}
        </p>
      )}
      <button type="button" className="primary" disabled={busy} onClick={onSave}>
        Save
      </button>
      {state === 'public' ? (
        <button type="button" disabled={busy} onClick={() => onPublish('draft', 'Unpublished: back to draft')}>
          Unpublish
        </button>
      ) : (
        <button type="button" disabled={busy} onClick={() => onPublish('public', 'Published: visitors see it at their next page')}>
          Publish
        </button>
      )}
      {children}
    </footer>
  );
}
