/**
 * Frame messaging (analytics §7 cross-window messages, §8): a message to another window of the tab, namespaced
 * by `waymark: apiKey`; a postMessage that throws logs 'Failed to postMessage'. And the tab's windows.
 */
import { MESSAGES } from '../../shared/messages';
import type { LogLevel } from '../../shared/protocol';
import type { FrameEnvelope, FrameMessage } from '../../shared/frames/readFrameMessage';

/** Posts `message` to `target`; `targetOrigin` keeps what only this origin may read (who the visitor is) from others. */
export function postFrameMessage(
  target: MessageEventSource | Window | null | undefined,
  message: FrameMessage,
  apiKey: string,
  log: (level: LogLevel, message: string) => void,
  targetOrigin = '*',
): void {
  if (!target) return;
  try {
    (target as Window).postMessage({ ...message, waymark: apiKey } satisfies FrameEnvelope, targetOrigin);
  } catch (err) {
    log('error', `${MESSAGES.postMessageFailed}: ${(err as Error)?.message ?? String(err)}`);
  }
}

/** Every window of the tab but this one: the top and its frames, depth first (cross-origin ones too). */
export function tabWindows(): Window[] {
  const found: Window[] = [];
  const walk = (w: Window, depth: number) => {
    if (w !== window) found.push(w);
    // length and indexed access are among what a cross-origin WindowProxy allows.
    if (depth < 10) for (let i = 0; i < w.length; i++) walk(w[i] as Window, depth + 1);
  };
  try {
    walk(window.top ?? window, 0);
  } catch {
    // A window went away while walking: the others still hear from us when they join.
  }
  return found;
}
