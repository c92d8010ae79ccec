/**
 * One guide in a list of guides the visitor may start (the launcher's list, a resource center module): its
 * name, a check mark once complete, and a click that asks for the guide.
 */
import type { ReactNode } from 'react';

export function GuideItem({ guideId, name, complete, onOpen }: { guideId: string; name: string; complete?: boolean; onOpen(guideId: string): void }): ReactNode {
  return (
    <li>
      <button type="button" className="wm-item" data-guide-id={guideId} onClick={() => onOpen(guideId)}>
        {name}
        {complete ? ' \u2713' : ''}
      </button>
    </li>
  );
}
