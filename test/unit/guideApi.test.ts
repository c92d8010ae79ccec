/**
 * shim/createGuideApi: areGuidesDisabled answers what the guides chunk does (shim/agentOptions guidesOff): a host
 * that passes a truthy value other than `true` (a string from a template, 1) gets guides off, and the API says so.
 */
import { describe, expect, it } from 'vitest';
import type { Running } from '../../shim/agentState';
import type { InitializeOptions } from '../../shim/agentOptions';
import { createGuideApi } from '../../shim/createGuideApi';

function apiWith(options: Partial<InitializeOptions> | null) {
  const running = options ? ({ options: { apiKey: 'k', ...options }, guidesReady: Promise.resolve(null) } as unknown as Running) : null;
  return createGuideApi({
    log: () => undefined,
    guard: (fn) => fn(),
    whenRunning: (fn, fallback) => (running ? fn(running) : fallback),
    running: () => running,
  });
}

describe('areGuidesDisabled', () => {
  it('is true for every value that turns guides off, false otherwise', () => {
    expect(apiWith({ disableGuides: true }).areGuidesDisabled()).toBe(true);
    expect(apiWith({ disableGuides: 'true' as unknown as boolean }).areGuidesDisabled()).toBe(true);
    expect(apiWith({ guides: { disabled: 1 as unknown as boolean } }).areGuidesDisabled()).toBe(true);
    expect(apiWith({ disableGuides: false }).areGuidesDisabled()).toBe(false);
    expect(apiWith({}).areGuidesDisabled()).toBe(false);
    expect(apiWith(null).areGuidesDisabled()).toBe(false);
  });

  it('follows setGuidesDisabled', () => {
    const api = apiWith({});
    api.setGuidesDisabled(true);
    expect(api.areGuidesDisabled()).toBe(true);
    api.setGuidesDisabled(false);
    expect(api.areGuidesDisabled()).toBe(false);
  });
});
