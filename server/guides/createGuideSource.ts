/**
 * What guide.json serves for an app (issue #14): the database's public guides once the database owns the app
 * (a guide was saved or seeded for it), else the guide folder's files; the launcher config of the app's
 * settings when one is set, else the folder's launcher files; the guide settings (throttling, adoption-guide
 * order) when the app's settings set them, which the agent uses unless the host's initialize options set them.
 */
import type { Guide } from '../../shared/guides/guides';
import type { GuideCatalog } from '../createGuideCatalog';
import type { FormField } from '../../shared/forms/formValidation';
import { type AppSettings, DEFAULT_SETTINGS } from '../settings/checkSettings';
import type { SettingsStore } from '../settings/createSettingsStore';
import type { GuideStore } from './createGuideStore';

/** The guides and launcher of one app, as registerDataRoutes reads them. */
export interface GuideSource {
  list(apiKey: string): Promise<Guide[]>;
  /** guide.json's `launcher`, or undefined for none. */
  launcher(apiKey: string): Promise<unknown>;
  /**
   * guide.json's `settings`: the guide settings (throttling, adoption-guide order) the app's settings set, and
   * the form fields to validate (analytics §2) when form validation is on and has fields.
   */
  guideSettings(apiKey: string): Promise<(AppSettings['guides'] & { formValidation?: { fields: FormField[] } }) | undefined>;
  /** Whether steps written in markdown are read as markdown (the site config's guideMarkdown, on by default). */
  guideMarkdown(apiKey: string): Promise<boolean>;
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
      const { guides, formValidation } = await settings.get(apiKey);
      if (!formValidation?.enabled || !formValidation.fields.length) return guides;
      return { ...guides, formValidation: { fields: formValidation.fields } };
    },
    async guideMarkdown(apiKey) {
      return (await settings.get(apiKey)).guideMarkdown ?? DEFAULT_SETTINGS.guideMarkdown!;
    },
  };
}
