/**
 * Runs `fn` once the main thread is idle after the agent's start (within 1 s). `fn` must be safe to run late
 * (after a teardown) and more than once: nothing cancels it.
 *
 * Why (issue #16): the page's first touch of each browser store (local storage, session storage) is a
 * synchronous IPC to a browser process still busy loading the page; a CDP profile of the start put most of
 * the agent's startup wall time there (bench/README.md, 2026-11-26). The agent starts in the load event's task
 * (guides §1), and the same touch in idle time after it costs about a millisecond. Safari has no
 * requestIdleCallback: a short timer after the start's task is the next best thing.
 */
export function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 1000 });
  else setTimeout(fn, 50);
}
