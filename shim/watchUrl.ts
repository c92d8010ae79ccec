/**
 * Notices every real page change of a single-page app (analytics §1, §9: URL polled every 500 ms): history
 * pushState/replaceState, popstate, hashchange, and a poll for whatever else changes the URL. All of them
 * funnel into one comparison with the last URL seen, so a change is reported exactly once whichever
 * detector sees it first.
 *
 * The history hook wraps the two methods on the page's own `history` object (not the prototype), keeps
 * their arguments, return value, `this` and exceptions exactly, and is undone by the returned function.
 */
import { URL_POLL_INTERVAL_MS } from '../shared/constants';
import { TICK_MS, type Ticker } from './createTicker';

export function watchUrl(onChange: (url: string, previous: string) => void, ticker: Ticker): () => void {
  let last = document.URL;
  const check = () => {
    const url = document.URL;
    if (url === last) return;
    const previous = last;
    last = url;
    onChange(url, previous);
  };

  let active = true;
  const names = ['pushState', 'replaceState'] as const;
  type Method = History['pushState'];
  const originals = {} as Record<(typeof names)[number], Method>;
  const wrappers = {} as Record<(typeof names)[number], Method>;
  for (const name of names) {
    const original = (originals[name] = history[name]);
    history[name] = wrappers[name] = function (this: History, ...args: Parameters<Method>) {
      const result = original.apply(this, args);
      // After the host's own code that follows the call has run, like the browser's own URL update.
      if (active) queueMicrotask(check);
      return result;
    };
  }
  addEventListener('popstate', check);
  addEventListener('hashchange', check);
  const stopPoll = ticker.every(URL_POLL_INTERVAL_MS / TICK_MS, check);

  return () => {
    active = false;
    // Put the host's methods back where ours are still installed; where other code has wrapped ours since,
    // unwrapping would drop theirs, so ours stays as a plain pass-through.
    for (const name of names) if (history[name] === wrappers[name]) history[name] = originals[name];
    removeEventListener('popstate', check);
    removeEventListener('hashchange', check);
    stopPoll();
  };
}
