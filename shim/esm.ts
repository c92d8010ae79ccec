/**
 * The npm entry: `import { initialize, track } from 'waymark'`. The agent's worker and lazy chunks are files
 * next to this module (dist/esm/), each referenced as `new URL('./file.js', import.meta.url)`: the pattern
 * bundlers (Vite, webpack 5, Rollup plugins, esbuild with a loader) detect, so a host app's build emits them
 * as files of its own output, under its own hashed names, and the agent starts them from there. The literal
 * form matters: a computed name would hide the files from the host's bundler.
 */
import { createAgent } from './createAgent';

export type { AgentAsset, EntityOptions, InitializeOptions, WaymarkApi } from './agentOptions';
export type { WorkerMode } from './startWorker';

// Our own build must leave these references for the host's bundler (vite.config.ts: the esm target keeps
// them verbatim); the host's bundler rewrites each to the URL of the file it emitted.
const assets = {
  worker: new URL(/* @vite-ignore */ './waymark.worker.js', import.meta.url).href,
  inpage: new URL(/* @vite-ignore */ './waymark.inpage.js', import.meta.url).href,
  guides: new URL(/* @vite-ignore */ './waymark.guides.js', import.meta.url).href,
  overlay: new URL(/* @vite-ignore */ './waymark.overlay.js', import.meta.url).href,
  privacy: new URL(/* @vite-ignore */ './waymark.privacy.js', import.meta.url).href,
  prompts: new URL(/* @vite-ignore */ './waymark.prompts.js', import.meta.url).href,
  frames: new URL(/* @vite-ignore */ './waymark.frames.js', import.meta.url).href,
  author: new URL(/* @vite-ignore */ './waymark.author.js', import.meta.url).href,
  tools: new URL(/* @vite-ignore */ './waymark.tools.js', import.meta.url).href,
  forms: new URL(/* @vite-ignore */ './waymark.forms.js', import.meta.url).href,
  record: new URL(/* @vite-ignore */ './waymark.record.js', import.meta.url).href,
  steps: new URL(/* @vite-ignore */ './waymark.steps.js', import.meta.url).href,
  render: new URL(/* @vite-ignore */ './waymark.render.js', import.meta.url).href,
};

/**
 * The page's one agent. Its waymark.js is unknown here (the host's bundler inlined this module), so it joins
 * the tab's frames but installs into none (analytics §8 'Unable to find agent url to install agent in frames').
 */
export const waymark = createAgent({ assetBase: import.meta.url, assets, installType: 'npm' });

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
export const addCustomAction = waymark.addCustomAction;
export const addGlobalScript = waymark.addGlobalScript;
export const launchDesigner = waymark.launchDesigner;
export const toggleLauncher = waymark.toggleLauncher;
export const showLauncher = waymark.showLauncher;
export const hideLauncher = waymark.hideLauncher;
export const removeLauncher = waymark.removeLauncher;
export const openResourceCenter = waymark.openResourceCenter;
export const closeResourceCenter = waymark.closeResourceCenter;
export const toggleResourceCenter = waymark.toggleResourceCenter;
export const startGuides = waymark.startGuides;
export const stopGuides = waymark.stopGuides;
export const loadGuides = waymark.loadGuides;
export const setGuidesDisabled = waymark.setGuidesDisabled;
export const areGuidesDisabled = waymark.areGuidesDisabled;
export const debugGuides = waymark.debugGuides;
export const isReady = waymark.isReady;
export const getVersion = waymark.getVersion;
export const getWorkerMode = waymark.getWorkerMode;
export const teardown = waymark.teardown;
export const getSegmentFlags = waymark.getSegmentFlags;
export const clearSession = waymark.clearSession;
export const stopSendingEvents = waymark.stopSendingEvents;
export const startSendingEvents = waymark.startSendingEvents;
export const isSendingEvents = waymark.isSendingEvents;
export const getLogHistory = waymark.getLogHistory;
export const enableLogging = waymark.enableLogging;
export const disableLogging = waymark.disableLogging;
export const showLogHistory = waymark.showLogHistory;
export default waymark;
