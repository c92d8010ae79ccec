/**
 * Dead and error clicks (analytics §4, §9): after a click, watch 500 ms for an effect — a DOM mutation,
 * a scroll, focus moving elsewhere, a URL change or the page going away. None: a dead click, told on the
 * agent's next tick. A page error in that time: an error click, with its message cut to 1500 characters.
 *
 * One MutationObserver serves every click being watched, and it is connected only while some click is:
 * the first effect disconnects it, so a busy page pays for one callback, not for every mutation.
 *
 * The watched clicks are a buffer (analytics §9 "click buffer 100 ms window, max 9 entries"): a click on the same
 * element within 100 ms of the last one joins its entry (a double or triple click is one gesture: its watch runs
 * 500 ms from its last click, and every click of it gets the one verdict, so an app that answers the second
 * click of a double click does not get its first called dead); at most 9 entries at once: a burst beyond that is
 * a rage matter, judged in the worker, and watching it click by click would cost the host for nothing.
 */
import { CLICK_BUFFER_MAX, CLICK_BUFFER_WINDOW_MS, DEAD_CLICK_MS, ERROR_CLICK_MESSAGE_LIMIT } from '../shared/constants';
import type { Ticker } from './createTicker';

/**
 * What a watched click turned out to be, once per click when its watch ends: `[]` when it had an effect (the
 * capture batch waits for this, shim/createBridge.ts).
 */
export type ClickVerdict = (sequence: number, frustrationTypes: string[], errorMessage?: string) => void;

export interface ClickEffectWatcher {
  /** Starts watching after a click on `target` (or joins the entry of its gesture); with 9 entries already, it is not: its verdict is `[]` at once. */
  watch(sequence: number, target: Element): void;
  /** An effect seen elsewhere (the URL changed, the page is going away). */
  effect(): void;
  stop(): void;
}

const SCROLL_OPTIONS = { capture: true, passive: true };
const OBSERVED: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };

export function watchClickEffects(report: ClickVerdict, errorClickLogging: boolean, ticker: Ticker): ClickEffectWatcher {
  /** The buffer's entries: the clicks of one gesture on `target`, the last at `last`. */
  let pending: Array<{ sequences: number[]; target: Element; last: number; deadline: number; error?: string }> = [];
  let listening = false;
  const observer = typeof MutationObserver === 'function' ? new MutationObserver(() => effect()) : null;
  // Listened to from the start, not per click: adding or removing a scroll listener makes Chromium commit a
  // frame to tell its compositor (~0.2 ms each, twice per click, issue #16), and adding and removing the other
  // three per click cost an isolated click ~30 µs more. Idle, each is one comparison per event.
  const onScroll = () => listening && effect();
  addEventListener('scroll', onScroll, SCROLL_OPTIONS);
  document.addEventListener('focusin', onFocus, true);
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onError);
  // Deadlines are judged on the agent's periodic tick (every 250 ms), not on a timer of each click's own: a
  // timer task costs the host more than the check (issue #16). A verdict is thus told 0-250 ms after its
  // deadline; what happened before the deadline decides it, as the spec counts.
  const stopTicks = ticker.every(1, () => pending.length && judge(false));

  /** Tells the verdicts that are due: every click past its deadline is dead; with `alive`, the others had an effect. */
  function judge(alive: boolean): void {
    const now = Date.now();
    const done = alive ? pending : pending.filter((p) => p.deadline <= now);
    pending = alive ? [] : pending.filter((p) => p.deadline > now);
    if (!pending.length) unlisten();
    for (const p of done) {
      const types = p.deadline <= now ? ['deadClick'] : [];
      // Errors already seen make their clicks error clicks, dead or alive.
      if (p.error !== undefined) types.push('errorClick');
      for (const sequence of p.sequences) report(sequence, types, p.error);
    }
  }

  function effect(): void {
    judge(true);
  }

  function onFocus(event: FocusEvent): void {
    if (!listening) return;
    const to = event.target;
    // The clicked element taking focus is the click itself, not an effect of it.
    if (to instanceof Node && pending.every((p) => !p.target.contains(to) && !to.contains(p.target))) effect();
  }

  function onError(event: ErrorEvent | PromiseRejectionEvent): void {
    if (!listening || !errorClickLogging) return;
    const reason = 'reason' in event ? event.reason : event.error ?? event.message;
    const message = (reason instanceof Error ? reason.message : String(reason ?? 'error')).slice(0, ERROR_CLICK_MESSAGE_LIMIT);
    for (const p of pending) p.error ??= message;
  }

  function listen(): void {
    if (listening) return;
    listening = true;
    observer?.observe(document.documentElement, OBSERVED);
  }

  function unlisten(): void {
    if (!listening) return;
    listening = false;
    observer?.disconnect();
  }

  return {
    watch(sequence, target) {
      const now = Date.now();
      const gesture = pending.find((p) => p.target === target && now - p.last <= CLICK_BUFFER_WINDOW_MS);
      if (gesture) {
        gesture.sequences.push(sequence);
        gesture.last = now;
        gesture.deadline = now + DEAD_CLICK_MS;
        return;
      }
      if (pending.length >= CLICK_BUFFER_MAX) return report(sequence, []);
      pending.push({ sequences: [sequence], target, last: now, deadline: now + DEAD_CLICK_MS });
      listen();
      // A click inside a component's shadow root changes that root, which the document's observer does not
      // see (issue #7): watch the root as well, until the verdict.
      const root = target.getRootNode();
      if (root instanceof ShadowRoot) observer?.observe(root, OBSERVED);
    },
    effect,
    stop() {
      pending = [];
      unlisten();
      stopTicks();
      removeEventListener('scroll', onScroll, SCROLL_OPTIONS);
      document.removeEventListener('focusin', onFocus, true);
      removeEventListener('error', onError);
      removeEventListener('unhandledrejection', onError);
    },
  };
}
