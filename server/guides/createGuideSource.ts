/**
 * What guide.json serves for an app (issue #14): the database's public guides once the database owns the app
 * (a guide was saved or seeded for it), else the guide folder's files; the launcher config of the app's
 * settings when one is set, else the folder's launcher files; the guide settings (throttling, adoption-guide
 * order) when the app's settings set them, which the agent uses unless the host's initialize options set them.
 */
import type { Guide } from '../../shared/guides/guides';
import type { GuideCatalog } from './createGuideCatalog';
import type { FormField } from '../../shared/forms/formValidation';
import type { GuideTheme } from '../../shared/surfaces/guideTheme';
import { type StoredSettings, DEFAULT_SETTINGS } from '../settings/checkSettings';
import type { SettingsStore } from '../settings/createSettingsStore';
import type { GuideStore } from './createGuideStore';

/** The guides and launcher of one app, as registerDataRoutes reads them. */
export interface GuideSource {
  list(apiKey: string): Promise<Guide[]>;
  /** What guide.json serves of the app's settings, read once per request. */
  siteConfig(apiKey: string): Promise<SiteConfig>;
}

/** The app's settings as guide.json serves them. */
export interface SiteConfig {
  /** guide.json's `launcher`, or undefined for none. */
  launcher: unknown;
  /**
   * guide.json's `settings`: the guide settings (throttling, adoption-guide order) the app's settings set, and
   * the form fields to validate (analytics §2) when form validation is on and has fields.
   */
  guideSettings: (StoredSettings['guides'] & { formValidation?: { fields: FormField[] } }) | undefined;
  /** Whether steps written in markdown are read as markdown (the site config's guideMarkdown, on by default). */
  guideMarkdown: boolean;
  /** The app's step theme; empty when none is set. */
  theme: GuideTheme;
}

/** Composes the database and the folder. */
export function createGuideSource(store: GuideStore, folder: GuideCatalog, settings: SettingsStore): GuideSource {
  return {
    async list(apiKey) {
      return (await store.published(apiKey)) ?? folder.list();
    },
    async siteConfig(apiKey) {
      const { launcher, guides, formValidation, guideMarkdown, theme } = await settings.get(apiKey);
      return {
        launcher: launcher ?? (await folder.launcher(apiKey)),
        // fields may be absent from what was stored (checkSettings reads a missing list as empty).
        guideSettings: formValidation?.enabled && formValidation.fields?.length ? { ...guides, formValidation: { fields: formValidation.fields } } : guides,
        guideMarkdown: guideMarkdown ?? DEFAULT_SETTINGS.guideMarkdown!,
        theme: theme ?? {},
      };
    },
  };
}
