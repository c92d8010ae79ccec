/**
 * The wire events the paths tests store (paths.test.ts, pathOccurrences.test.ts): page loads, clicks and track
 * events of a visitor at T0 + t in a session, on `http://app.test`, with an Export button (a feature's) and a Help
 * button (no feature's).
 */
import { wireEvent } from './testServer';

export const EXPORT = { tag: 'BUTTON', id: '', cls: 'export', title: null, attrs: {}, myIndex: 0, childIndex: 0, txt: 'Export' };
export const HELP = { tag: 'BUTTON', id: '', cls: 'help', title: null, attrs: {}, myIndex: 1, childIndex: 1, txt: 'Help' };
export const URL_OF = (path: string) => `http://app.test${path}`;

/** The event makers of times from `T0`; a session null: the event carries no session id. */
export function pathEvents(T0: number) {
  const at = (t: number, visitor: string, session: string | null, fields: Record<string, unknown>) =>
    wireEvent({ browser_time: T0 + t, visitor_id: visitor, account_id: 'acme', sessionId: session ?? undefined, ...fields });
  return {
    load: (t: number, v: string, s: string | null, path: string) => at(t, v, s, { type: 'load', url: URL_OF(path), props: {} }),
    click: (t: number, v: string, s: string | null, path: string, target: object = EXPORT) => at(t, v, s, { type: 'click', url: URL_OF(path), props: { target } }),
    track: (t: number, v: string, s: string | null, name: string) => at(t, v, s, { type: 'track', url: URL_OF('/'), track_event_name: name, props: {} }),
  };
}
