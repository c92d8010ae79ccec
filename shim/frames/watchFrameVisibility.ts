/**
 * guides §4 frame visibility, analytics §4 Frames: a parent watches its iframe elements with an
 * IntersectionObserver (display:none, zero size or out of view: hidden) and tells the agent inside each one
 * (`receiveFrameVisibility`), when it is one of the tab's frames; a frame that joins later is told at once.
 */
import { frameVisibility } from '../../shared/frames/frameVisibility';

export interface FrameVisibilityWatch {
  /** Starts watching an iframe element (once per element). */
  observe(el: Element): void;
  /** Tells the frame `source`, when it sits in one of this page's iframe elements, how that element is seen. */
  tell(source: MessageEventSource): void;
  disconnect(): void;
}

/** `send` posts the verdict to a frame's window when that window is a known frame of the tab. */
export function watchFrameVisibility(
  iframes: HTMLCollectionOf<HTMLIFrameElement>,
  send: (win: MessageEventSource, visibility: 'hidden' | 'visible') => void,
): FrameVisibilityWatch {
  const visibilities = new WeakMap<Element, 'hidden' | 'visible'>();
  const observed = new WeakSet<Element>();
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
          for (const entry of entries) {
            const box = entry.boundingClientRect;
            const visibility = frameVisibility({ width: box.width, height: box.height, intersecting: entry.isIntersecting });
            visibilities.set(entry.target, visibility);
            const win = (entry.target as HTMLIFrameElement).contentWindow;
            if (win) send(win, visibility);
          }
        })
      : null;
  return {
    observe(el) {
      if (observed.has(el)) return;
      observed.add(el);
      observer?.observe(el);
    },
    tell(source) {
      for (let i = 0; i < iframes.length; i++) {
        const el = iframes[i]!;
        if (el.contentWindow !== source) continue;
        const visibility = visibilities.get(el);
        if (visibility) send(source, visibility);
        return;
      }
    },
    disconnect: () => observer?.disconnect(),
  };
}
