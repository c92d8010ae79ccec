/** A guide's state as a coloured badge: draft, staged, public, disabled. */
import type { GuideState } from '../types';

const LABELS: Record<GuideState, string> = { draft: 'Draft', staged: 'Staged', public: 'Public', disabled: 'Disabled' };

/** The badge. */
export function StateBadge({ state }: { state: GuideState }) {
  return <span className={`badge state-${state}`}>{LABELS[state] ?? state}</span>;
}
