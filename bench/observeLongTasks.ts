/**
 * Long tasks (main-thread tasks over 50 ms, the Long Tasks API) of a page, collected by a
 * PerformanceObserver the bench installs before a burst and read after it. Both functions run inside the
 * page with `page.evaluate`, so they are page-safe like runClickBurst (no outside references, no named inner
 * functions).
 */

/** One long task, as the page's clock saw it, in ms. */
export interface LongTask {
  startTime: number;
  duration: number;
}

/** Where the observer keeps what it saw. */
interface LongTaskWindow {
  benchLongTasks?: LongTask[];
  benchLongTaskObserver?: PerformanceObserver;
}

/**
 * Starts collecting long tasks (`buffered: true`, so those from before the call are included too; the
 * reader filters by time). Answers the page's `performance.now()`, the start of what {@link readLongTasks}
 * should count. Throws where the browser has no Long Tasks API.
 */
export function observeLongTasks(): number {
  if (!PerformanceObserver.supportedEntryTypes.includes('longtask')) throw new Error('this browser has no Long Tasks API');
  const w = window as unknown as LongTaskWindow;
  const seen: LongTask[] = [];
  w.benchLongTasks = seen;
  w.benchLongTaskObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) seen.push({ startTime: entry.startTime, duration: entry.duration });
  });
  w.benchLongTaskObserver.observe({ type: 'longtask', buffered: true });
  return performance.now();
}

/** The long tasks that started at or after `since` (page clock), pending records included. */
export function readLongTasks(since: number): LongTask[] {
  const w = window as unknown as LongTaskWindow;
  const seen = w.benchLongTasks;
  if (!seen || !w.benchLongTaskObserver) throw new Error('observeLongTasks was not called in this page');
  for (const entry of w.benchLongTaskObserver.takeRecords()) seen.push({ startTime: entry.startTime, duration: entry.duration });
  return seen.filter((t) => t.startTime >= since);
}
