/**
 * Unsaved edits are not lost by a click elsewhere. While `dirty`, a route change inside the console asks first
 * (react-router's blocker), closing or reloading the tab gets the browser's own question (beforeunload), and a page
 * can put any other action that would drop the edits (switching a language tab) behind the same question.
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';

export interface LeaveGuard {
  /** The question, while one is asked; render it anywhere in the page. */
  dialog: ReactNode;
  /** Runs `action` at once when nothing is unsaved, else after the author chose to leave the edits. */
  confirm(action: () => void): void;
}

export function useLeaveGuard(dirty: boolean): LeaveGuard {
  const titleId = useId();
  const [pending, setPending] = useState<(() => void) | null>(null);
  // Read at navigation time: a save that navigates right after it succeeded is not asked about (the page passes
  // dirty false from the render the save lands in).
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirtyNow.current && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener('beforeunload', ask);
    return () => removeEventListener('beforeunload', ask);
  }, [dirty]);

  const confirm = useCallback((action: () => void) => {
    if (dirtyNow.current) setPending(() => action);
    else action();
  }, []);

  const asking = blocker.state === 'blocked' || pending !== null;
  const stay = () => {
    if (blocker.state === 'blocked') blocker.reset();
    setPending(null);
  };
  const leave = () => {
    if (blocker.state === 'blocked') blocker.proceed();
    pending?.();
    setPending(null);
  };
  const dialog = asking ? (
    <div className="scrim">
      <div className="card dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={(e) => e.key === 'Escape' && stay()}>
        <h2 id={titleId}>Leave without saving?</h2>
        <p>Your changes on this page are not saved yet. Leaving drops them.</p>
        <div className="toolbar">
          <button type="button" className="primary" autoFocus onClick={stay}>
            Stay and keep editing
          </button>
          <button type="button" className="danger-outline" onClick={leave}>
            Leave without saving
          </button>
        </div>
      </div>
    </div>
  ) : null;
  return { dialog, confirm };
}
