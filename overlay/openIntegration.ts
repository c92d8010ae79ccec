/**
 * guides §2 Native integrations (drift, intercom, zendesk): an integration module of the resource center opens
 * the provider's own widget through its public browser API, and only when the page has that API
 * (`window.drift`, `window.Intercom`, `window.zE`). Nothing of the provider is loaded by Waymark.
 */

/** The provider's global on `win`, when the page has it. */
export function hasIntegration(win: Window, provider: string): boolean {
  const w = win as unknown as Record<string, unknown>;
  if (provider === 'drift') return typeof w.drift === 'object' && w.drift !== null;
  if (provider === 'intercom') return typeof w.Intercom === 'function';
  if (provider === 'zendesk') return typeof w.zE === 'function';
  return false;
}

type Call = (...args: unknown[]) => unknown;

/**
 * Opens the provider's widget and calls `onClose` when the provider says it closed. Throws when the API is
 * missing or refuses (guides §8: the caller then closes the resource center).
 */
export function openIntegration(win: Window, provider: string, name: string, onClose: () => void): void {
  const w = win as unknown as Record<string, unknown>;
  if (!hasIntegration(win, provider)) throw new Error(`${provider} is not on this page`);
  if (provider === 'drift') {
    // Drift's widget API: drift.api once loaded; drift.on(event, handler) for its events.
    const drift = w.drift as { api?: { openChat?: Call }; on?: Call };
    if (typeof drift.api?.openChat !== 'function') throw new Error('drift.api.openChat is not available');
    drift.on?.('chatClose', onClose);
    drift.api.openChat();
  } else if (provider === 'intercom') {
    const intercom = w.Intercom as Call;
    intercom('onHide', onClose);
    intercom('show');
  } else {
    const zE = w.zE as Call;
    // Zendesk: the messaging Web Widget ('messenger'), or the classic widget for chat and the knowledge base.
    const widget = name === 'messaging' ? 'messenger' : 'webWidget';
    zE(`${widget}:on`, 'close', onClose);
    zE(widget, 'open');
  }
}
