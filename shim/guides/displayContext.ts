/**
 * What the guide display's parts share: the bridge to the worker, the logger, the overlay (loaded on first use),
 * the page's element look-ups, this frame's facts, the script loader, and how a guide is shown by id. Built once
 * by createGuideDisplay.
 */
import type { FrameState } from '../../shared/frames/frameVisibility';
import type { LogLevel, SeenReason } from '../../shared/protocol';
import type { Overlay } from '../../overlay/api';
import type { Bridge } from '../createBridge';
import type { Frames } from '../startFrames';
import type { ScriptLoader } from './createScriptLoader';

export interface DisplayContext {
  bridge: Bridge;
  log(level: LogLevel, message: string): void;
  /** The overlay chunk's surfaces, imported the first time something is drawn. */
  overlay(): Promise<Overlay>;
  /** Whether the overlay was asked for yet: with none, there is nothing to clear. */
  hasOverlay(): boolean;
  /**
   * Issue #16: fetches and evaluates the overlay chunk and makes its (empty) shadow root, without drawing
   * anything, so a guide that comes costs its render alone. Called while guide.json is in flight when this app had something to show in this
   * browser before, and at once when a load brings something.
   */
  prefetchOverlay(): void;
  /** Whether a guide load of this app, in this browser, brought something to show (kept in localStorage). */
  hadGuides: { read(): boolean; write(had: boolean): void };
  /** The first element matching an author's selector (`host >>> inner` reaches into shadow roots), or null. */
  query(selector: string): Element | null;
  /** analytics §4 Frames: leadership, visibility, another frame's guide; kept up to date by the frames chunk. */
  frame: FrameState;
  /** The frames chunk, once the page has frames (guides across frames: shim/frames/createFrameGuides.ts). */
  frames(): Frames | undefined;
  loadScript: ScriptLoader;
  /** Shows a loaded guide by id (API, permalink, activation, a panel's list), whatever its auto rules say. */
  showGuide(guideId: string, stepId: string | undefined, reason: SeenReason, quiet?: boolean): Promise<boolean>;
  /**
   * analytics §2 form validation: a load's `formFields`; the forms chunk is imported the first time there are
   * some, and told of every load after (none: it stops validating).
   */
  formFields(fields: unknown): void;
  /** A critical error: logged, and sent to the error log as critical (guides §8). */
  critical(message: string): void;
}
