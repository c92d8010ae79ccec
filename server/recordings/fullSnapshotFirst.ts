/**
 * What a replay is given (issue #18): the recording's events from its first full snapshot on, so that no
 * incremental event comes before the DOM it changes. rrweb writes a Meta event (type 4: the page's size) just
 * before each full snapshot (type 2); the answer starts at that Meta when there is one, else at the snapshot.
 * Events before (a chunk lost, or an agent that started mid-page) cannot be replayed and are left out.
 */

/** rrweb's EventType values this rule reads (rrweb `@rrweb/types` EventType). */
export const RRWEB_EVENT_TYPE = { FullSnapshot: 2, IncrementalSnapshot: 3, Meta: 4 } as const;

/** The events from the first full snapshot (or the Meta right before it) on; `[]` when there is no full snapshot. */
export function fullSnapshotFirst<E extends { type: number }>(events: readonly E[]): E[] {
  const snapshot = events.findIndex((e) => e.type === RRWEB_EVENT_TYPE.FullSnapshot);
  if (snapshot < 0) return [];
  let from = snapshot;
  // The Meta of this snapshot: the last one before it, with only non-incremental events between.
  for (let i = snapshot - 1; i >= 0; i--) {
    const type = events[i].type;
    if (type === RRWEB_EVENT_TYPE.Meta) {
      from = i;
      break;
    }
    if (type === RRWEB_EVENT_TYPE.IncrementalSnapshot || type === RRWEB_EVENT_TYPE.FullSnapshot) break;
  }
  return events.slice(from);
}
