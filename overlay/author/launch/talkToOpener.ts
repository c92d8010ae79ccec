/**
 * The designer opener's handshake (guides §6 "The opener is trusted through a message handshake", §7 "To the
 * designer opener: ready, connect success, unload, set-token"). A console that opened this page (window.opener)
 * is told `ready`; it answers `set-token` with a designer token; the page says `connect success` once the
 * designer runs with it, and `unload` when the page goes. A set-token is trusted only from the origin its
 * token names as the console (baseUrl): a page that merely opened this one cannot hand it a console of its own.
 */
import type { LogLevel } from '../../../shared/protocol';

/** The messages, each with its type (guides §7). */
export type OpenerMessage =
  | { type: 'ready'; apiKey: string }
  | { type: 'connect success'; apiKey: string }
  | { type: 'unload'; apiKey: string }
  | { type: 'set-token'; token: string };

export interface OpenerLink {
  /** Tells the opener the designer runs (after a set-token, or a launch of the page's own). */
  connected(): void;
  stop(): void;
}

/** Says ready to the opener, if any, and hands each trusted set-token's raw token to `onToken`. */
export function talkToOpener(apiKey: string, log: (level: LogLevel, message: string) => void, onToken: (raw: string, origin: string) => void): OpenerLink {
  const opener = window.opener as Window | null;
  let origin: string | null = null;
  const tell = (message: OpenerMessage) => {
    if (!opener || !origin) return;
    try {
      opener.postMessage(message, origin);
    } catch (err) {
      log('warn', `Failed to postMessage: ${String(err)}`);
    }
  };
  const onMessage = (event: MessageEvent) => {
    const data = event.data as Partial<OpenerMessage> | null;
    if (!data || data.type !== 'set-token' || event.source !== opener || typeof data.token !== 'string') return;
    if (!tokenNamesOrigin(data.token, event.origin)) {
      log('warn', `invalid origin: a set-token from ${event.origin} for another console`);
      return;
    }
    origin = event.origin;
    onToken(data.token, event.origin);
  };
  const onHide = () => tell({ type: 'unload', apiKey });
  if (opener) {
    addEventListener('message', onMessage);
    addEventListener('pagehide', onHide);
    // The opener's origin is unknown until it answers: ready goes to any, and carries nothing secret.
    try {
      opener.postMessage({ type: 'ready', apiKey } satisfies OpenerMessage, '*');
    } catch (err) {
      log('warn', `Failed to postMessage: ${String(err)}`);
    }
  }
  return {
    connected: () => tell({ type: 'connect success', apiKey }),
    stop() {
      removeEventListener('message', onMessage);
      removeEventListener('pagehide', onHide);
    },
  };
}

/** Whether a raw token's baseUrl is `origin` (base64url JSON; an unreadable token is not). */
function tokenNamesOrigin(raw: string, origin: string): boolean {
  try {
    const json = atob(raw.replace(/-/g, '+').replace(/_/g, '/'));
    const token = JSON.parse(json) as { baseUrl?: unknown };
    return typeof token.baseUrl === 'string' && new URL(token.baseUrl).origin === origin;
  } catch {
    return false;
  }
}
