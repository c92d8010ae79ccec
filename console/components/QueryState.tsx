/** What a view shows while its data loads or when the API refused: the API's own error text. */
import type { ReactNode } from 'react';

/** Props of {@link QueryState}. */
export interface QueryStateProps {
  isPending: boolean;
  error: Error | null;
  children?: ReactNode;
}

/** Loading, the error, or the children. */
export function QueryState({ isPending, error, children }: QueryStateProps) {
  if (error) return <div className="error" role="alert">{error.message}</div>;
  if (isPending) return <div className="loading" aria-busy="true">Loading…</div>;
  return <>{children}</>;
}

/** A box that says there is nothing yet, and what to do about it. */
export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}
