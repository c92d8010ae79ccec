/**
 * Frame visibility (spec: analytics §3, §4 Frames; guides §4 Guide loop, "frame visibility" phase): a parent
 * frame watches each of its iframe elements and tells the frame inside whether it can be seen; a frame that
 * cannot be seen shows no guide, and one guide shown in any frame of the tab holds auto display in the others.
 */
import { FRAME_VISIBILITY_WAIT_MS } from '../constants';
import type { FrameVisibility } from './electLeaderFrame';

/** What the shim knows of its own frame, read by the guide loop on each tick. */
export interface FrameState {
  /** window.top === window. */
  isTop: boolean;
  /** This frame is the elected leader (guides §6: it alone shows the launcher and the resource center). */
  leader: boolean;
  visibility: FrameVisibility;
  /** Another frame of the tab shows a guide now (receiveGuideStepShownInFrame): no auto display here. */
  othersShowing: boolean;
}

/**
 * An iframe element's visibility as its parent sees it (spec: guides §4 frame visibility): hidden when it is not
 * displayed or has no size (its box is empty) or lies wholly outside the viewport (not intersecting), else
 * visible. `box` is what an IntersectionObserver entry says of the element.
 */
export function frameVisibility(box: { width: number; height: number; intersecting: boolean }): Exclude<FrameVisibility, 'unknown'> {
  return box.width > 0 && box.height > 0 && box.intersecting ? 'visible' : 'hidden';
}

/**
 * Whether this frame's guide loop may show a guide now (spec: guides §4 frame visibility phase): never while
 * hidden; in a child frame whose visibility is still unknown, only once it has waited FRAME_VISIBILITY_WAIT_MS
 * (`waitedMs`: since its guide loop started) for its parent to say.
 */
export function mayShowGuidesInFrame(frame: Pick<FrameState, 'isTop' | 'visibility'>, waitedMs: number): boolean {
  if (frame.visibility === 'hidden') return false;
  return frame.visibility === 'visible' || frame.isTop || waitedMs >= FRAME_VISIBILITY_WAIT_MS;
}
