/**
 * Frame leadership (spec: analytics §3 "Frame record", §4 Frames; guides §4 "Frames and tabs"): every frame of a
 * tab that runs the agent with the same api key keeps a record of each other, and each one elects the same
 * leader from the same records, so no frame has to be asked. Only the leader shows the launcher and the
 * resource center and syncs identity (guides §6).
 */

/** spec: analytics §3, guides §4 — a frame's visibility: unknown until its parent frame says. */
export type FrameVisibility = 'unknown' | 'hidden' | 'visible';

/**
 * spec: analytics §3 Frame record "agentInstallType" (its values are ours): how the frame's agent came to be on its
 * page: the page's own snippet (waymark.js), the npm package in the page's bundle, or installed into the frame by
 * its parent frame's agent (analytics §7). 'unknown' for a frame whose agent does not say.
 */
export type AgentInstallType = 'snippet' | 'npm' | 'frame' | 'unknown';

/**
 * spec: analytics §3 Frame record (id, apiKey, leaderKey, isTop, joinedAt, visibility, agentInstallType; the
 * spec's guides and shown map travel as messages of their own).
 */
export interface FrameRecord {
  /** The frame's frameId (shim/loadIdentity.ts loadTabFacts: new per page load). */
  id: string;
  apiKey: string;
  /** The frame's `frames.leaderKey` option; '' when it has none. */
  leaderKey: string;
  /** window.top === window. */
  isTop: boolean;
  /** Epoch ms when the frame's agent joined the tab's frames (one clock for a tab's frames). */
  joinedAt: number;
  visibility: FrameVisibility;
  agentInstallType: AgentInstallType;
}

/**
 * The leader among `frames` (spec: analytics §4 Frames): a frame whose leaderKey is one of `leaderKeys`, the
 * earlier key in that list first; then the top frame; then the earliest joined; frames still equal are
 * ordered by id, so every frame of the tab elects the same one. Null for no frames.
 */
export function electLeaderFrame(frames: readonly FrameRecord[], leaderKeys: readonly string[] = []): FrameRecord | null {
  const rank = (f: FrameRecord) => {
    const i = f.leaderKey ? leaderKeys.indexOf(f.leaderKey) : -1;
    return i < 0 ? leaderKeys.length : i;
  };
  let best: FrameRecord | null = null;
  for (const f of frames) {
    if (!best) {
      best = f;
      continue;
    }
    const order =
      rank(f) - rank(best) ||
      Number(best.isTop) - Number(f.isTop) ||
      f.joinedAt - best.joinedAt ||
      (f.id < best.id ? -1 : f.id > best.id ? 1 : 0);
    if (order < 0) best = f;
  }
  return best;
}
