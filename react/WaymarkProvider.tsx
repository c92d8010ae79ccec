import { useEffect, type ReactNode } from 'react';
import { identify, initialize, type InitializeOptions } from 'waymark';

export interface WaymarkProviderProps {
  /**
   * The agent's initialize options. Read when the provider first mounts: the agent initializes once per
   * page. Later changes of `visitor.id` or `account.id` (a login after the first render) are sent as identify.
   */
  options: InitializeOptions;
  children?: ReactNode;
}

/**
 * The visitor and account ids the page's agent was started or last identified with; null until a provider
 * started it. Module state, not component state: the agent is one per page, whatever mounts and unmounts.
 */
let startedWith: string | null = null;

/**
 * Starts the page's Waymark agent on its first mount and renders its children. Safe under StrictMode, which
 * mounts, unmounts and mounts again: the second run finds the agent started with the same ids and does
 * nothing, so initialize (and its identify and meta events) happens once.
 */
export function WaymarkProvider({ options, children }: WaymarkProviderProps) {
  const visitorId = options.visitor?.id;
  const accountId = options.account?.id;
  useEffect(() => {
    const ids = JSON.stringify([visitorId ?? null, accountId ?? null]);
    if (startedWith === null) initialize(options);
    else if (ids !== startedWith && visitorId !== undefined) {
      identify({ visitor: options.visitor, account: options.account, parentAccount: options.parentAccount });
    }
    startedWith = ids;
    // Only the ids matter after the first run; other option changes cannot apply to a running agent.
  }, [visitorId, accountId]);
  return <>{children}</>;
}
