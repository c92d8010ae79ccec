/**
 * What makes a step a modal dialog for keyboard and screen-reader visitors (lightbox, mobile lightbox):
 * focus moves into it when shown (retried, guides §9 autofocus: up to 100 times every 50 ms) and returns to
 * the host element that had it when it closes; Tab and Shift+Tab cycle inside it; the rest of the page is
 * hidden from assistive technology (aria-hidden) and from focus and clicks (inert) while it is open.
 */
import { AUTOFOCUS_RETRIES, AUTOFOCUS_RETRY_MS } from '../shared/constants';
import { AUTHOR_TOOL_HOSTS, hostSelector } from '../shared/authoring/ownHosts';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
/** Top-level elements that render nothing: there is nothing to hide in them. */
const NOT_RENDERED = new Set(['HEAD', 'SCRIPT', 'STYLE', 'LINK', 'META', 'TEMPLATE', 'NOSCRIPT']);

/**
 * Where focus goes back to when the last modal step closes, while that return is pending. A guide moving
 * from one modal step to the next unmounts one dialog and mounts the other in the same commit: the new
 * dialog takes the pending return over, so focus never flickers onto the host page between two steps
 * (the shim would capture that focus as the visitor's).
 */
let pendingReturn: { to: HTMLElement | null; timer: ReturnType<typeof setTimeout> } | null = null;

/**
 * Makes `el` a modal dialog while it is on the page (lightbox, mobile lightbox): the React surfaces call it from an
 * effect (useModalDialog), the painted ones (overlay/static) when they draw. Returns the undo, for when it goes.
 */
export function makeModal(el: HTMLElement): () => void {
  // Not in a document (overlay/prewarm.tsx's sample): nothing to make modal, no focus to move.
  if (!el.isConnected) return () => {};
  const root = el.getRootNode() as ShadowRoot | Document;
  const host = root instanceof ShadowRoot ? root.host : null;
  let previous: HTMLElement | null;
  if (pendingReturn) {
    clearTimeout(pendingReturn.timer);
    previous = pendingReturn.to;
    pendingReturn = null;
  } else {
    // Focus inside our shadow root shows as our host element; that is not a place to go back to.
    const active = el.ownerDocument.activeElement;
    previous = active instanceof HTMLElement && active !== host && active !== el.ownerDocument.body ? active : null;
  }
  let restorePage = () => {};

  // guides §9 autofocus: a dialog that cannot take focus yet (still being laid out, or the host moved
  // focus back) is tried again, up to 100 times every 50 ms; once it has focus we leave it alone.
  let tries = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = () => {
    clearTimeout(timer);
    el.focus({ preventScroll: true });
    if (!el.contains(root.activeElement) && ++tries < AUTOFOCUS_RETRIES) timer = setTimeout(attempt, AUTOFOCUS_RETRY_MS);
  };
  // The page goes inert and the first focus try comes after the frame that paints the dialog (issue #16):
  // inert on <body> recomputes the style of the whole page, and focus needs an up-to-date layout, so doing
  // both at once held the dialog's first paint back by ~18 ms here. The backdrop already takes the page's
  // clicks meanwhile. The timer covers a frame that does not come.
  // Whichever comes first of the frame and the timer starts it, once; nothing runs after the dialog went.
  let started = false;
  let gone = false;
  const afterFirstFrame = () => {
    if (started || gone) return;
    started = true;
    clearTimeout(timer);
    if (host) restorePage = hidePageBeside(host);
    attempt();
  };
  const frame = requestAnimationFrame(() => void setTimeout(afterFirstFrame));
  timer = setTimeout(afterFirstFrame, AUTOFOCUS_RETRY_MS);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const list = tabbables(el);
    if (!list.length) return el.focus();
    const i = list.indexOf(root.activeElement as HTMLElement);
    const next = event.shiftKey ? (i <= 0 ? list.length - 1 : i - 1) : i < 0 || i === list.length - 1 ? 0 : i + 1;
    list[next]!.focus();
  };
  el.addEventListener('keydown', onKeyDown);

  return () => {
    gone = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    el.removeEventListener('keydown', onKeyDown);
    // The page first, so the element focus goes back to is no longer inert.
    restorePage();
    const back = {
      to: previous,
      timer: setTimeout(() => {
        if (pendingReturn === back) pendingReturn = null;
        if (previous?.isConnected) previous.focus({ preventScroll: true });
      }),
    };
    pendingReturn = back;
  };
}

/**
 * The elements Tab reaches inside `container`, in document order; of a named radio group only the checked
 * radio (or the first one), as the browser does.
 */
export function tabbables(container: Element): HTMLElement[] {
  const groups = new Set<string>();
  const list: HTMLElement[] = [];
  for (const el of Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE))) {
    if (!el.getClientRects().length) continue; // not rendered (display: none, or inside a closed <details>)
    if (el instanceof HTMLInputElement && el.type === 'radio' && el.name) {
      const checked = Array.from(container.querySelectorAll<HTMLInputElement>('input[type=radio]')).find((r) => r.name === el.name && r.checked);
      if ((checked ?? el) !== el || groups.has(el.name)) continue;
      groups.add(el.name);
    }
    list.push(el);
  }
  return list;
}

/** The authoring chunk's elements on <html> (overlay/author). */
const AUTHOR_TOOLS = hostSelector(AUTHOR_TOOL_HOSTS);

/**
 * Hides the page beside our overlay's host element: each rendered sibling of it (the host hangs on <html>,
 * so these are <body> and whatever else a page put there) gets aria-hidden="true" and inert. Siblings that
 * already have an aria-hidden of their own are left exactly as they are. Returns the undo, which puts every
 * attribute back as it was.
 */
function hidePageBeside(host: Element): () => void {
  const changed: Array<{ el: Element; hadInert: boolean }> = [];
  for (const el of Array.from(host.parentElement?.children ?? [])) {
    // The author's tools (designer, preview bar, launch modal) stay usable over a modal step (issue #15).
    if (el === host || NOT_RENDERED.has(el.tagName) || el.hasAttribute('aria-hidden') || el.matches(AUTHOR_TOOLS)) continue;
    changed.push({ el, hadInert: el.hasAttribute('inert') });
    el.setAttribute('aria-hidden', 'true');
    el.setAttribute('inert', '');
  }
  return () => {
    for (const { el, hadInert } of changed) {
      el.removeAttribute('aria-hidden');
      if (!hadInert) el.removeAttribute('inert');
    }
  };
}
