/**
 * Building-block actions inside a panel (the launcher's what's-new items and custom content, the resource
 * center's modules): only those that lead elsewhere mean something there: `showGuide` opens a guide, `openLink`
 * an http(s) link in a new tab. Step actions (advance, dismiss, ...) have no step to act on.
 */
import type { GuideAction } from '../shared/guides/guides';

export function actionsElsewhere(onOpenGuide: (guideId: string) => void): (actions: GuideAction[]) => void {
  return (actions) => {
    for (const a of actions) {
      const p = String(a.parameters?.[0] ?? '');
      if (a.action === 'showGuide' && p) onOpenGuide(p);
      if (a.action === 'openLink' && /^https?:/i.test(p)) window.open(p, '_blank', 'noopener');
    }
  };
}
