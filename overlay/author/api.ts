/**
 * The contract of the authoring chunk (dist/agent/waymark.author.js, issue #15): the designer, its launch modal
 * and the preview bar. The guides chunk (shim/guides/watchAuthoring.ts) watches for an author (the designer
 * shortcut, the designer URL parameter, a saved preview record) and only then imports this module, so a visitor
 * who is not an author never fetches it. Types only.
 */
import type { Bridge } from '../../shim/createBridge';
import type { LogLevel } from '../../shared/protocol';
import type { Overlay } from '../api';
import type { LaunchFlow } from '../../shared/authoring/designerLaunch';

/** What the page gives the authoring chunk. */
export interface AuthorHost {
  apiKey: string;
  /** The reference server (console API and preview endpoint): the agent's content host unless a token names another. */
  serverUrl: string;
  log(level: LogLevel, message: string): void;
  bridge: Bridge;
  /** The visitor's renderer (waymark.overlay.js), for the designer's live preview and the preview's steps. */
  overlay(): Promise<Overlay>;
  /** The first element an element rule matches on this page, as the guide loop finds it (open shadow roots too). */
  query(selector: string): Element | null;
  /** Holds the visitor guide loop (true) while the designer or a preview owns the page, and lets it go (false). */
  holdGuides(held: boolean): void;
  /**
   * The designer opened (true) or closed (false) on this page: while it is open the author's clicks, focus, submits
   * and changes (picking an element, the host's own controls tried out) are authoring, not the product's use, and
   * the agent captures none of them (issue #35: they would count in the features being tagged).
   */
  designing(open: boolean): void;
  /** Shows a loaded guide's step as the agent would (the preview's steps), whatever its rules say. */
  showGuide(guideId: string, stepId: string | undefined): Promise<boolean>;
  /** Hides what the agent shows. */
  hideGuides(): void;
  /** The step the agent shows now, or null. */
  activeStep(): { guideId: string; stepId: string } | null;
}

/** What the authoring chunk exports. */
export interface AuthorModule {
  startAuthoring(host: AuthorHost): Authoring;
}

/** A designer launch as the guides chunk saw it (it has checked disableDesigner and the child frame). */
export interface LaunchRequest {
  flow: LaunchFlow;
  via: 'shortcut' | 'url' | 'api' | 'resume';
  /** The designer URL parameter's value, or the token kept by the designer open in this tab. */
  rawToken?: string;
}

export interface Authoring {
  /** guides §2 Designer: reads the token (shared/authoring/designerLaunch) and runs the launch flow. */
  launch(request: LaunchRequest): void;
  /**
   * guides §3 Preview: runs the preview a record describes: `value` is what a preview link carried (saved then)
   * or what an earlier page saved; checked here (shared/authoring/previewRecord), the preview exits when refused.
   */
  preview(value: unknown, fromLink: boolean): void;
  /** Takes everything off the page (agent teardown). */
  stop(): void;
}
