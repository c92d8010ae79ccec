/**
 * Every message the spec words, spelled exactly as the spec spells it (the texts: shared/messageTexts.ts).
 * `MESSAGES` is the namespace of them all; a bundle keeps only the messages it reads. PAGE_MESSAGES and
 * FRAME_MESSAGES name the ones the initial shim and the frames chunk say, for readers of those files.
 */
import * as TEXTS from './messageTexts';

export * as MESSAGES from './messageTexts';

/** spec: guides §8 'Failed to add BlockOut ui' (the overlay chunk's one message). */
export const BLOCK_OUT_FAILED = TEXTS.blockOutFailed;

/** spec: guides §8 — the resource center's module failure. */
export const RESOURCE_CENTER_MODULES_FAILED = TEXTS.resourceCenterModulesFailed;

/** spec: analytics §8 frame messaging errors and the debug message of frame installs (shim/startFrames.ts). */
export const FRAME_MESSAGES = {
  postMessageFailed: TEXTS.postMessageFailed,
  missingType: TEXTS.missingType,
  noAgentUrl: TEXTS.noAgentUrl,
} as const;

/** The messages of the initial shim (guides §1, §5; analytics §5, §8). */
export const PAGE_MESSAGES = {
  apiKeyMissing: TEXTS.apiKeyMissing,
  initializeOnce: TEXTS.initializeOnce,
  inputSelectorsNotArray: TEXTS.inputSelectorsNotArray,
  submitSelectorsNotArray: TEXTS.submitSelectorsNotArray,
  agentDisabled: TEXTS.agentDisabled,
  invalidTrackName: TEXTS.invalidTrackName,
  invalidTrackType: TEXTS.invalidTrackType,
  missingVisitorId: TEXTS.missingVisitorId,
  invalidVisitorId: TEXTS.invalidVisitorId,
  invalidAccountId: TEXTS.invalidAccountId,
  invalidParentAccountId: TEXTS.invalidParentAccountId,
  notInSubscription: TEXTS.notInSubscription,
} as const;
