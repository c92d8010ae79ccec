import { describe, expect, it } from 'vitest';
import { hasIntegration, openIntegration } from '../../overlay/openIntegration';

/** A window with only what the provider puts on it. */
const windowWith = (globals: Record<string, unknown>) => globals as unknown as Window;

describe('guides §2 Resource center native integrations: drift, intercom, zendesk through their public APIs', () => {
  it('knows a provider only when the page has its global', () => {
    expect(hasIntegration(windowWith({}), 'drift')).toBe(false);
    expect(hasIntegration(windowWith({ drift: {} }), 'drift')).toBe(true);
    expect(hasIntegration(windowWith({ Intercom: () => undefined }), 'intercom')).toBe(true);
    expect(hasIntegration(windowWith({ zE: () => undefined }), 'zendesk')).toBe(true);
    expect(hasIntegration(windowWith({ zE: {} }), 'zendesk')).toBe(false);
    expect(hasIntegration(windowWith({ slack: {} }), 'slack')).toBe(false);
  });

  it('drift: listens for chatClose, then opens the chat', () => {
    const calls: unknown[][] = [];
    const onClose = () => undefined;
    const drift = { on: (...a: unknown[]) => calls.push(['on', ...a]), api: { openChat: () => calls.push(['openChat']) } };
    openIntegration(windowWith({ drift }), 'drift', 'chat', onClose);
    expect(calls).toEqual([['on', 'chatClose', onClose], ['openChat']]);
    // Drift present but not loaded yet: a failure the resource center closes on.
    expect(() => openIntegration(windowWith({ drift: { on: () => undefined } }), 'drift', 'chat', onClose)).toThrow('drift.api.openChat is not available');
  });

  it('intercom: onHide, then show', () => {
    const calls: unknown[][] = [];
    const onClose = () => undefined;
    openIntegration(windowWith({ Intercom: (...a: unknown[]) => calls.push(a) }), 'intercom', 'chat', onClose);
    expect(calls).toEqual([['onHide', onClose], ['show']]);
  });

  it('zendesk: the messenger for messaging, the classic web widget for chat and the knowledge base', () => {
    const onClose = () => undefined;
    for (const [name, widget] of [['messaging', 'messenger'], ['chat', 'webWidget'], ['knowledge base', 'webWidget']]) {
      const calls: unknown[][] = [];
      openIntegration(windowWith({ zE: (...a: unknown[]) => calls.push(a) }), 'zendesk', name!, onClose);
      expect(calls, name).toEqual([[`${widget}:on`, 'close', onClose], [widget, 'open']]);
    }
  });

  it('a missing provider or a throwing API throws to the caller', () => {
    expect(() => openIntegration(windowWith({}), 'intercom', 'chat', () => undefined)).toThrow('intercom is not on this page');
    const failing = () => {
      throw new Error('down');
    };
    expect(() => openIntegration(windowWith({ Intercom: failing }), 'intercom', 'chat', () => undefined)).toThrow('down');
  });
});
