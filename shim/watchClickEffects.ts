/**
 * Dead and error clicks (analytics §4, §9): after a click, watch 500 ms for an effect — a DOM mutation,
 * a scroll, focus moving elsewhere, a URL change or the page going away. None: a dead click. A page error
 * in that time: an error click, with its message cut to 1500 characters.
 *
 * One MutationObserver serves every click being watched, and it is connected only while some click is:
 * the first effect disconnects it, so a busy page pays for one callback, not for every mutation. At most
 * 9 clicks are watched at once (analytics §9 click buffer, max 9 entries): a burst beyond that is a rage
 * matter, judged in the worker, and watching it click by click would cost the host for nothing.
 */
import { CLICK_BUFFER_MAX, DEAD_CLICK_MS, ERROR_CLICK_MESSAGE_LIMIT } from '../shared/constants';

/**
 * What a watched click turned out to be, once per click when its watch ends: `[]` when it had an effect (the
 * capture batch waits for this, shim/createBridge.ts).
 */
export type ClickVerdict = (sequence: number, frustrationTypes: string[], errorMessage?: string) => void;

export interface ClickEffectWatcher {
  /** Starts watching after a click on `target`; with 9 watched already, it is not: its verdict is `[]` at once. */
  watch(sequence: number, target: Element): void;
  /** An effect seen elsewhere (the URL changed, the page is going away). */
  effect(): void;
  stop(): void;
}

const SCROLL_OPTIONS = { capture: true, passive: true };
const OBSERVED: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };

export function watchClickEffects(report: ClickVerdict, errorClickLogging: boolean): ClickEffectWatcher {
  let pending: Array<{ sequence: number; target: Element; deadline: number; error?: string }> = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let listening = false;
  const observer = typeof MutationObserver === 'function' ? new MutationObserver(() => effect()) : null;
  // Listened to from the start, not per click: adding or removing a scroll listener makes Chromium commit a
  // frame to tell its compositor (~0.2 ms each, twice per click, issue #16). Idle, it costs nothing.
  const onScroll = () => listening && effect();
  addEventListener('scroll', onScroll, SCROLL_OPTIONS);

  function effect(): void {
    // Errors already seen still make their clicks error clicks; the rest were alive.
    const done = pending;
    pending = [];
    unlisten();
    for (const p of done) report(p.sequence, p.error !== undefined ? ['errorClick'] : [], p.error);
  }

  function onFocus(event: FocusEvent): void {
    const to = event.target;
    // The clicked element taking focus is the click itself, not an effect of it.
    if (to instanceof Node && pending.every((p) => !p.target.contains(to) && !to.contains(p.target))) effect();
  }

  function onError(event: ErrorEvent | PromiseRejectionEvent): void {
    if (!errorClickLogging) return;
    const reason = 'reason' in event ? event.reason : event.error ?? event.message;
    const message = (reason instanceof Error ? reason.message : String(reason ?? 'error')).slice(0, ERROR_CLICK_MESSAGE_LIMIT);
    for (const p of pending) p.error ??= message;
  }

  function listen(): void {
    if (listening) return;
    listening = true;
    observer?.observe(document.documentElement, OBSERVED);
    document.addEventListener('focusin', onFocus, true);
    addEventListener('error', onError);
    addEventListener('unhandledrejection', onError);
  }

  function unlisten(): void {
    if (!listening) return;
    listening = false;
    observer?.disconnect();
    document.removeEventListener('focusin', onFocus, true);
    removeEventListener('error', onError);
    removeEventListener('unhandledrejection', onError);
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function check(): void {
    timer = null;
    const now = Date.now();
    // Deadlines come in click order: only the expired head is looked at.
    let n = 0;
    while (n < pending.length && pending[n]!.deadline <= now) n++;
    const due = pending.slice(0, n);
    pending = pending.slice(n);
    for (const p of due) report(p.sequence, p.error !== undefined ? ['deadClick', 'errorClick'] : ['deadClick'], p.error);
    if (pending.length) timer = setTimeout(check, pending[0]!.deadline - now);
    else unlisten();
  }

  return {
    watch(sequence, target) {
      if (pending.length >= CLICK_BUFFER_MAX) return report(sequence, []);
      pending.push({ sequence, target, deadline: Date.now() + DEAD_CLICK_MS });
      listen();
      // A click inside a component's shadow root changes that root, which the document's observer does not
      // see (issue #7): watch the root as well, until the verdict.
      const root = target.getRootNode();
      if (root instanceof ShadowRoot) observer?.observe(root, OBSERVED);
      if (timer === null) timer = setTimeout(check, DEAD_CLICK_MS);
    },
    effect,
    stop() {
      pending = [];
      unlisten();
      removeEventListener('scroll', onScroll, SCROLL_OPTIONS);
    },
  };
}
