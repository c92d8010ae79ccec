/**
 * The npm entry: `import { initialize, track } from 'waymark'`. The worker and the overlay are files next to
 * this module (dist/esm/), found through import.meta.url so a host's bundler can emit them as assets.
 */
import { createAgent } from './createAgent';

export type { InitializeOptions, WaymarkApi, EntityOptions } from './createAgent';

/** The page's one agent. */
export const waymark = createAgent({ assetBase: new URL(/* @vite-ignore */ '.', import.meta.url).href });

export const initialize = waymark.initialize;
export const identify = waymark.identify;
export const track = waymark.track;
export const getVisitorId = waymark.getVisitorId;
export const getAccountId = waymark.getAccountId;
export const flushNow = waymark.flushNow;
export const showGuideById = waymark.showGuideById;
export const hideGuides = waymark.hideGuides;
export const showGuideByName = waymark.showGuideByName;
export const goToStep = waymark.goToStep;
export const getActiveGuide = waymark.getActiveGuide;
export const getActiveGuides = waymark.getActiveGuides;
export const onGuideAdvanced = waymark.onGuideAdvanced;
export const onGuidePrevious = waymark.onGuidePrevious;
export const onGuideDismissed = waymark.onGuideDismissed;
export const onGuideSnoozed = waymark.onGuideSnoozed;
export const addGuideHook = waymark.addGuideHook;
export const toggleLauncher = waymark.toggleLauncher;
export const showLauncher = waymark.showLauncher;
export const hideLauncher = waymark.hideLauncher;
export const removeLauncher = waymark.removeLauncher;
export const startGuides = waymark.startGuides;
export const stopGuides = waymark.stopGuides;
export const loadGuides = waymark.loadGuides;
export const setGuidesDisabled = waymark.setGuidesDisabled;
export const areGuidesDisabled = waymark.areGuidesDisabled;
export const debugGuides = waymark.debugGuides;
export const isReady = waymark.isReady;
export const getVersion = waymark.getVersion;
export default waymark;
