import waymark, { identify, track, type WaymarkApi } from 'waymark';

/**
 * The page's agent: every method of the Waymark API. Calls made before `WaymarkProvider` has started it
 * are queued and replayed once it runs (guides §1).
 */
export function useWaymark(): WaymarkApi {
  return waymark;
}

/** `track(name, properties?, type?)`, stable across renders: call it from event handlers. */
export function useTrack(): WaymarkApi['track'] {
  return track;
}

/** `identify(visitorId, accountId?)` or `identify({ visitor, account })`, stable across renders. */
export function useIdentify(): WaymarkApi['identify'] {
  return identify;
}
