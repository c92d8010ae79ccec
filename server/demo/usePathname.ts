/**
 * The current location.pathname as React state, updated by `navigate` and by back/forward (popstate).
 */
import { useSyncExternalStore } from 'react';
import { NAVIGATE_EVENT } from './navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

/** Returns the path and re-renders when it changes. */
export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => location.pathname);
}
