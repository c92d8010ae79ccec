import { describe, expect, it } from 'vitest';
import { WHATSNEW_SEEN_DELAY_MS } from '../../shared/constants';
import { isWhatsNewSeenDue, whatsNewItems } from '../../shared/launcherPanel';
import { isAnnouncementInView } from '../../shared/resourceCenterPanel';

describe("guides §9 What's-new seen delay", () => {
  it('is 1000 ms as the spec gives it', () => {
    expect(WHATSNEW_SEEN_DELAY_MS).toBe(1000);
  });

  it('is due once the item has been active for 1000 ms, not before, and never while out of view', () => {
    expect(isWhatsNewSeenDue(null, 5000)).toBe(false);
    expect(isWhatsNewSeenDue(1000, 1999)).toBe(false);
    expect(isWhatsNewSeenDue(1000, 2000)).toBe(true);
  });
});

describe("guides §2 What's-new item: rendered inside the launcher", () => {
  it('lists the whatsnew steps of the listed guides in order, with their seen state', () => {
    const guides = [
      { id: 'a', name: 'Alpha', steps: [{ id: 'a1', type: 'lightbox' }, { id: 'a2', type: 'whatsnew', seenState: 'none' }] },
      { id: 'b', steps: [{ id: 'b1', type: 'whatsnew', seenState: 'advanced' }, { id: 'b2', type: 'whatsnew' }] },
    ];
    expect(whatsNewItems(guides)).toEqual([
      { guideId: 'a', stepId: 'a2', name: 'Alpha', seen: false },
      { guideId: 'b', stepId: 'b1', name: 'b', seen: true },
      { guideId: 'b', stepId: 'b2', name: 'b', seen: false },
    ]);
  });

  it('becomes active once its top third is scrolled into view (the resource center rule, reused)', () => {
    const view = { top: 0, bottom: 300 };
    expect(isAnnouncementInView({ top: 240, bottom: 330 }, view)).toBe(true); // top third ends at 270
    expect(isAnnouncementInView({ top: 280, bottom: 370 }, view)).toBe(false); // top third ends at 310
  });
});
