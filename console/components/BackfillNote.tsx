/**
 * Where the counting of a new or changed feature's or page's past use stands (issue #35 "Fast at real volumes"):
 * "Counting past use… 40%" while the server's background backfill matches the rule against everything the app
 * has stored (the counts beside it are partial until then), nothing once it is ready. The view reads the rule
 * again while it counts (useDefinitionUse's refetchInterval).
 */
import type { BackfillState } from '../types';

/** Props of {@link BackfillNote}. */
export interface BackfillNoteProps {
  backfill: BackfillState | undefined;
}

export function BackfillNote({ backfill }: BackfillNoteProps) {
  if (!backfill || backfill.state === 'ready') return null;
  return (
    <span className="backfill-note" role="status">
      Counting past use… {Math.floor(backfill.progress * 100)}%
      <progress value={backfill.progress} max={1} aria-hidden="true" />
    </span>
  );
}
