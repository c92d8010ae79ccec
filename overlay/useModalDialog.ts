/**
 * The modal dialog of a React surface (overlay/modalDialog.ts) while it is mounted; `key` names what is shown (a new
 * step is a new dialog: the effect runs again).
 */
import { useEffect, type RefObject } from 'react';
import { makeModal } from './modalDialog';

export function useModalDialog(dialog: RefObject<HTMLElement | null>, key: string): void {
  useEffect(() => (dialog.current ? makeModal(dialog.current) : undefined), [dialog, key]);
}
