/**
 * guides §2 URL triggers: `waymark_guide` (or `c__waymark_guide`) in the query or the hash shows that guide,
 * at `waymark_step` when given; with `waymark_once` the parameters are removed from the address afterwards.
 * An address opens its permalink once (`handled`).
 */
import { PERMALINK_PARAMS } from '../../shared/constants';
import type { LogLevel, SeenReason } from '../../shared/protocol';

/** Answers whether the address was cleaned (waymark_once): the same page, which needs no new guide load. */
export async function openPermalink(
  handled: Set<string>,
  showGuide: (guideId: string, stepId: string | undefined, reason: SeenReason) => Promise<boolean>,
  log: (level: LogLevel, message: string) => void,
): Promise<boolean> {
  const { guide, step, once, prefix } = PERMALINK_PARAMS;
  const query = new URLSearchParams(location.search);
  const hash = new URLSearchParams(location.hash.replace(/^#\/?/, '').replace(/^[^?]*\?/, ''));
  const read = (name: string) => query.get(name) ?? query.get(prefix + name) ?? hash.get(name) ?? hash.get(prefix + name);
  const guideId = read(guide);
  if (!guideId || handled.has(`${location.href}`)) return false;
  handled.add(location.href);
  const shownOk = await showGuide(guideId, read(step) ?? undefined, 'permalink');
  if (!shownOk) log('warn', `permalink: guide ${guideId} could not be shown`);
  if (read(once) === null) return false;
  const url = new URL(location.href);
  for (const name of [guide, step, once]) for (const n of [name, prefix + name]) url.searchParams.delete(n);
  if (url.hash) {
    const h = new URLSearchParams(url.hash.slice(1));
    for (const name of [guide, step, once]) for (const n of [name, prefix + name]) h.delete(n);
    url.hash = h.toString();
  }
  history.replaceState(history.state, '', url.href);
  handled.add(location.href);
  return true;
}
