/**
 * Requests between frames (guides §8, §9): a message that waits for the other frame's `frameResponse` with the
 * same request id, or fails with 'request timed out' after FRAME_REQUEST_TIMEOUT_MS (a frame that went away
 * without saying so, or whose agent is busy or stopped).
 */
import { FRAME_REQUEST_TIMEOUT_MS } from '../../shared/constants';
import { MESSAGES } from '../../shared/messages';

export interface FrameRequests {
  /** A fresh request id; `post` sends the request carrying it. Resolves with the answer's value. */
  ask(post: (requestId: string) => void): Promise<unknown>;
  /** A `frameResponse` arrived: settles its request (an unknown or late id is ignored). */
  answered(requestId: string, value: unknown): void;
  /** Teardown: every request still waiting fails now. */
  stop(): void;
}

export function createFrameRequests(frameId: string, timeoutMs = FRAME_REQUEST_TIMEOUT_MS): FrameRequests {
  const waiting = new Map<string, { resolve(value: unknown): void; reject(err: Error): void; timer: ReturnType<typeof setTimeout> }>();
  let next = 0;
  return {
    ask(post) {
      // Unique across the tab: the frame's own id and a counter.
      const requestId = `${frameId}.${++next}`;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(requestId);
          reject(new Error(MESSAGES.requestTimedOut));
        }, timeoutMs);
        waiting.set(requestId, { resolve, reject, timer });
        post(requestId);
      });
    },
    answered(requestId, value) {
      const w = waiting.get(requestId);
      if (!w) return;
      waiting.delete(requestId);
      clearTimeout(w.timer);
      w.resolve(value);
    },
    stop() {
      for (const w of waiting.values()) {
        clearTimeout(w.timer);
        w.reject(new Error('frames stopped'));
      }
      waiting.clear();
    },
  };
}
