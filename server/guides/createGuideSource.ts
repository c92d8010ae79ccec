/**
 * What guide.json serves for an app (issue #14): the database's public guides once the database owns the app
 * (a guide was saved or seeded for it), else the guide folder's files; the launcher config of the app's
 * settings when one is set, else the folder's launcher files; the guide settings (throttling, adoption-guide
 * order) when the app's settings set them, which the agent uses unless the host's initialize options set them.
 */
import type { Guide } from '../../shared/guides/guides';
import type { GuideCatalog } from '../createGuideCatalog';
import type { AppSettings } from '../settings/checkSettings';
import type { SettingsStore } from '../settings/createSettingsStore';
import type { GuideStore } from './createGuideStore';

/** The guides and launcher of one app, as registerDataRoutes reads them. */
export interface GuideSource {
  list(apiKey: string): Promise<Guide[]>;
  /** guide.json's `launcher`, or undefined for none. */
  launcher(apiKey: string): Promise<unknown>;
  /** guide.json's `settings` (throttling, adoption-guide order) when the app's settings set them. */
  guideSettings(apiKey: string): Promise<AppSettings['guides'] | undefined>;
}

/** Composes the database and the folder. */
export function createGuideSource(store: GuideStore, folder: GuideCatalog, settings: SettingsStore): GuideSource {
  return {
    async list(apiKey) {
      return (await store.published(apiKey)) ?? folder.list();
    },
    async launcher(apiKey) {
      const launcher = (await settings.get(apiKey)).launcher;
      return launcher ?? folder.launcher(apiKey);
    },
    async guideSettings(apiKey) {
      return (await settings.get(apiKey)).guides;
    },
  };
}
