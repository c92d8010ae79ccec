/**
 * The app's step theme (its settings' `theme`; shared/surfaces/guideTheme) written into each step as served:
 * `attributes.theme` with the app's values under the step's own, and beside the launcher config. The stored guide
 * is not touched, so a change of theme reaches every guide at its next load.
 */
import type { Guide } from '../../shared/guides/guides';
import type { GuideTheme } from '../../shared/surfaces/guideTheme';

export function applyTheme(guide: Guide, theme: GuideTheme): Guide {
  if (Object.keys(theme).length === 0) return guide;
  return {
    ...guide,
    steps: guide.steps.map((step) => ({
      ...step,
      attributes: { ...step.attributes, theme: { ...theme, ...step.attributes?.theme } },
    })),
  };
}

/** guide.json's launcher config with the app's theme beside it (`theme`, ours), when it is a config and a theme is set. */
export function launcherWithTheme(launcher: unknown, theme: GuideTheme): unknown {
  const config = typeof launcher === 'object' && launcher !== null && !Array.isArray(launcher);
  return config && Object.keys(theme).length > 0 ? { ...launcher, theme } : launcher;
}
