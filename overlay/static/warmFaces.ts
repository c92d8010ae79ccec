/**
 * Issue #34: the frame that first paints a step looked up the step's font faces (system-ui at 600 and bold, the close
 * button's ×) with synchronous calls to the browser inside its layout: 7-27 ms of a cold lightbox's frame in traces,
 * on the way to the guide being seen. Here a hidden sample of a step's text is laid out once, in the page's idle time
 * while guide.json is on its way, so the real step finds those faces looked up. Text, not a canvas: a canvas context
 * cost 7-50 ms of its own (181c665).
 *
 * The sample sits in the overlay's shadow root, outside the step's container, for one frame: the host goes into the
 * page for that frame and out again unless something was drawn meanwhile. A node added to the page is what the
 * dead-click watch takes for a click's effect (analytics §4, shim/watchClickEffects.ts, 500 ms), so the sample waits
 * while the visitor has just acted (the page's transient user activation, which lasts longer than that watch in every
 * engine); where the browser cannot tell, no sample is laid out.
 */
import type { OverlayHost } from '../createOverlayHost';
import { whenIdle } from '../whenIdle';

/** The sample: each face a step's text uses (the body, headings, buttons, the close button), a few letters each. */
const SAMPLE: ReadonlyArray<[tag: string, className: string, text: string]> = [
  ['button', 'wm-close', '\u00d7'],
  ['h2', '', 'Aa'],
  ['h3', '', 'Aa'],
  ['p', '', 'Aa 1'],
  ['button', '', 'Aa'],
];

/** How often the sample waits for the visitor's last action to be older, and how long each time. */
const TRIES = 10;
const RETRY_MS = 1_000;

/**
 * Lays the sample out in `parts`' shadow root in an idle time when the visitor has not just acted, unless `drawn()`
 * says something is on the page by then; takes it away after the frame, and the host with it while nothing is drawn.
 */
export function warmFaces(doc: Document, parts: OverlayHost, drawn: () => boolean, tries = TRIES): void {
  whenIdle(doc, () => {
    const view = doc.defaultView;
    const activation = view?.navigator.userActivation;
    if (!view || !activation || drawn() || parts.host.isConnected) return;
    if (activation.isActive) {
      if (tries > 1) view.setTimeout(() => warmFaces(doc, parts, drawn, tries - 1), RETRY_MS);
      return;
    }
    const sample = doc.createElement('div');
    sample.className = 'wm-step';
    sample.setAttribute('aria-hidden', 'true');
    sample.setAttribute('data-wm-warm-up', '');
    sample.style.cssText = 'visibility: hidden; pointer-events: none; top: 0; left: 0; contain: layout paint';
    for (const [tag, className, text] of SAMPLE) {
      const el = doc.createElement(tag);
      if (className) el.className = className;
      el.textContent = text;
      sample.appendChild(el);
    }
    parts.shadow.appendChild(sample);
    parts.attach();
    // After the frame that laid it out: a timer set in that frame's animation callback runs after its layout.
    view.requestAnimationFrame(() => view.setTimeout(() => {
      sample.remove();
      if (!drawn()) parts.host.remove();
    }));
  });
}
