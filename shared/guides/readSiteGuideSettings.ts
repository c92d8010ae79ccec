/**
 * The guide settings an app's server sends in guide.json (`settings: { throttling, adoptionGuides }`, issue #14:
 * what the console's Settings page stores). wire-protocol.md names no field for them: `settings` is ours.
 * What the host passed to initialize wins over them; a malformed value is ignored (the agent's default stays).
 */
import type { ThrottlingConfig } from './guides';

/** The guide settings of guide.json that passed their shape check. */
export interface SiteGuideSettings {
  throttling?: ThrottlingConfig;
  adoptionGuides?: 'before' | 'after';
}

/** Reads `response.settings`; anything it cannot read is left out. */
export function readSiteGuideSettings(raw: unknown): SiteGuideSettings {
  const read: SiteGuideSettings = {};
  if (typeof raw !== 'object' || raw === null) return read;
  const { throttling: t, adoptionGuides } = raw as Record<string, unknown>;
  if (adoptionGuides === 'before' || adoptionGuides === 'after') read.adoptionGuides = adoptionGuides;
  if (typeof t === 'object' && t !== null) {
    const { enabled, interval, unit } = t as Record<string, unknown>;
    if (typeof enabled === 'boolean' && typeof interval === 'number' && interval >= 0 && (unit === 'minute' || unit === 'hour' || unit === 'day')) {
      read.throttling = { enabled, interval, unit };
    }
  }
  return read;
}
