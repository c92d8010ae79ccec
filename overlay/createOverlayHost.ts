/**
 * The overlay's place on the page: a host element of our own with a shadow root, so host CSS and ours never meet,
 * and the stylesheets adopted into it. Made once per page by whoever draws first (the painted steps of
 * overlay/static, issue #34); the React overlay draws its surfaces into the same root.
 */
import { OVERLAY_CSS } from './styles';
import { isRtlLanguage } from '../shared/surfaces/isRtlLanguage';

export interface OverlayHost {
  host: HTMLElement;
  shadow: ShadowRoot;
  /** The overlay's own stylesheet. */
  sheet: CSSStyleSheet;
  /** A step's own stylesheet (contentUrlCss), replaced per step, scoped to the shadow root. */
  stepSheet: CSSStyleSheet;
  /** The launcher config's contentUrlCss (guides §2), apart from any step's sheet. */
  launcherSheet: CSSStyleSheet;
  /** Puts the host into the page, once: the first time something is drawn. */
  attach(): void;
}

export function createOverlayHost(doc: Document): OverlayHost {
  const host = doc.createElement('div');
  host.setAttribute('data-waymark-overlay', '');
  const shadow = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(OVERLAY_CSS);
  const stepSheet = new CSSStyleSheet();
  const launcherSheet = new CSSStyleSheet();
  shadow.adoptedStyleSheets = [sheet, stepSheet, launcherSheet];
  return {
    host,
    shadow,
    sheet,
    stepSheet,
    launcherSheet,
    /**
     * Into the page the first time something is drawn, not when the overlay is made: it is made ahead of a guide
     * (issue #16 prefetch), and a node added to the page then would be an effect of whatever the visitor had just
     * clicked (a dead click judged alive). On <html>, not <body>: a transform or filter on body would otherwise
     * re-anchor our fixed layers.
     */
    attach: () => void (host.isConnected || doc.documentElement.appendChild(host)),
  };
}

/** guides §2: whether a page's guides are mirrored: its language right-to-left (he, ar), or without one, the browser's. */
export function isRtlPage(doc: Document): boolean {
  return isRtlLanguage(doc.documentElement.lang || doc.defaultView?.navigator.language);
}

/** A step's container mirrored for a right-to-left page (isRtlPage), or not. */
export function mirrorForPage(container: HTMLElement, doc: Document): void {
  if (isRtlPage(doc)) container.dir = 'rtl';
  else container.removeAttribute('dir');
}
