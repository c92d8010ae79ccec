/**
 * Every message the spec words, spelled exactly as the spec spells it. Code logs these constants, and
 * tests assert them, so a drift from the spec's text fails a test.
 *
 * PAGE_MESSAGES are the ones the initial shim says, kept apart so it bundles these and no others;
 * MESSAGES has them all.
 */
/**
 * spec: guides §8 'Failed to add BlockOut ui', also exported alone: the overlay chunk needs only this one,
 * and importing MESSAGES would put every message in it (an object's unused keys are not tree-shaken).
 */
export const BLOCK_OUT_FAILED = 'Failed to add BlockOut ui';

/** spec: guides §8 — exported alone for the guides chunk, like BLOCK_OUT_FAILED. */
export const RESOURCE_CENTER_MODULES_FAILED = 'Failed to load one or more Resource Center modules';

/**
 * spec: analytics §8 frame messaging errors and the debug message of frame installs, exported alone for the
 * frames chunk (shim/startFrames.ts), like BLOCK_OUT_FAILED.
 */
export const FRAME_MESSAGES = {
  /** spec: analytics §8 — a postMessage to another frame threw. */
  postMessageFailed: 'Failed to postMessage',
  /** spec: analytics §8 — a message of ours (its `waymark` field names our api key) without a type. */
  missingType: 'Invalid Message: Missing type',
  /** spec: analytics §8 — debug: the agent's own script URL is unknown (npm install), so no frame gets it. */
  noAgentUrl: 'Unable to find agent url to install agent in frames',
} as const;

export const PAGE_MESSAGES = {
  /** spec: guides §1 — no apiKey. */
  apiKeyMissing: 'API key is not set, Waymark will not initialize.',
  /** spec: guides §1 — repeated initialize. */
  initializeOnce: 'Waymark only needs to be initialized once.',
  /** spec: analytics §5, §8 — configuration that must be arrays. */
  inputSelectorsNotArray: 'inputCssSelectors must be an array',
  submitSelectorsNotArray: 'submitCssSelectors must be an array',
  /** spec: analytics §8 — the original's 'Pendo is currently disabled.' in Waymark's own words. */
  agentDisabled: 'Waymark is currently disabled.',
  /** spec: analytics §5. */
  invalidTrackName: 'Must provide valid name string for event tracking',
  invalidTrackType: 'Must provide valid type string for event tracking',
  /** spec: analytics §5 — no usable visitor id at initialize; a generated anonymous id is used. */
  missingVisitorId: 'Missing visitor id.',
  /** spec: analytics §5 — an invalid visitor id is ignored and logged; `shown` is the value as the log shows it. */
  invalidVisitorId: (shown: string) => `Invalid visitor id ${shown}, ignored.`,
  /** spec: analytics §5 — an invalid account id clears the account. */
  invalidAccountId: (shown: string) => `Invalid account id ${shown}, account cleared.`,
  /** spec: analytics §3, §5 — an invalid parent account id is ignored: the account id is used alone. */
  invalidParentAccountId: (shown: string) => `Invalid parent account id ${shown}, ignored.`,
  /** spec: guides §5 Config — guide functions without the guides feature in the subscription. */
  notInSubscription: 'This functionality is not supported by your subscription.',
} as const;

export const MESSAGES = {
  ...PAGE_MESSAGES,
  ...FRAME_MESSAGES,
  /** spec: analytics §8 — non-2xx beacon. */
  badStatus: (status: number, text: string) => `received status code ${status}: ${text}`,
  /** spec: analytics §8 — an event too long even alone; its long fields are shortened and it is retried. */
  maxLengthExceeded: 'Max length exceeded for an event',
  /** spec: guides §5 — content without type, children and props. */
  contentNotJson: 'Response from the guide was not in proper JSON format',
  /** spec: guides §8 — content fetch failure. */
  contentLoadFailed: 'Failed to load content',
  /** spec: guides §8. */
  loadGuideFailed: 'Post loadGuide request failed',
  /** spec: guides §8 info level. */
  noElementForStep: 'No element found for step',
  /** spec: analytics §5 — a URL transform whose attr is not one of the six URL attributes. */
  invalidUrlAttr: 'Invalid URL attribute type',
  /** spec: analytics §5 — an action not allowed for the attr, or its data missing or of the wrong kind. */
  invalidTransformAction: 'Invalid transform action',
  /** spec: analytics §5 — a URL transform that is not an object, or has no attr. */
  missingAttr: 'missing required attr property',
  /** spec: analytics §5 — a URL transform without an action. */
  missingAction: 'missing required action property',
  /** spec: analytics §5 — a custom URL source that is not a URL, a string, or a function returning one. */
  invalidCustomUrl: 'Invalid type from custom URL source',
  /** spec: analytics §5 Config, §8 — a privacy filter that is not a usable regular expression (or list of them). */
  invalidPrivacyFilter: 'Invalid privacy filter for agent',
  /** spec: analytics §5 — signed metadata: jwt without signingKeyName. */
  jwtWithoutSigningKeyName: 'Signed metadata has a jwt but no signingKeyName',
  /** spec: analytics §5 — signed metadata: signingKeyName without jwt. */
  signingKeyNameWithoutJwt: 'Signed metadata has a signingKeyName but no jwt',
  /** spec: analytics §5 — a jwt that is not three dot-separated URL-safe base64 parts. */
  invalidJwt: 'Signed metadata jwt must be three dot-separated URL-safe base64 parts',
  /** spec: analytics §5 — a signingKeyName that is not a non-blank string. */
  invalidSigningKeyName: 'Signed metadata signingKeyName must be a non-empty string',
  /** spec: analytics §4 — signed metadata is required and none was given: the action is refused. */
  signedMetadataRequired: 'Signed metadata is required but no jwt and signingKeyName were given',
  /** spec: analytics §8 — a segmentflag.json request failed (status, network, or response shape). */
  segmentFlagsFailed: 'Failed to load segment flags',
  /** spec: guides §7, §8 — the guide.gif availability probe failed; guides stay blocked for 4 hours. */
  guidesUnreachable: 'Guides disabled: unreachable endpoint guide.gif',
  /** spec: guides §8 — callback messages of a refused guide load. */
  guidesBlocked: 'error: guides are blocked',
  invalidGuideUrl: 'error: invalid url',
  /** spec: guides §5, §8 — a content or resource hash that does not verify; the guide is marked failed. */
  unableToVerifyContent: (url: string) => `Unable to verify content at ${url}`,
  /** spec: guides §8 — a content script that did not load. */
  scriptLoadFailed: 'Failed to load script',
  /** spec: guides §8 — a stylesheet still loading after 10 seconds. */
  stylesheetTimeout: (url: string) => `Failed to load ${url} within 10 seconds`,
  /** spec: guides §8 — a content URL that does not parse. */
  unableToParse: (url: string) => `unable to parse ${url}`,
  /** spec: guides §5 — a building-block prop outside the allow-list (and not data-* or aria-*). */
  illegalBuildingBlockKey: (key: string, guideId: string, stepId: string) =>
    `illegal building block key ${key} found on guide ${guideId} step ${stepId}`,
  /** spec: guides §4 Continuation — a last-seen record older than 12 hours, logged once. */
  continuationExpired: 'Multi-step continuation has expired',
  /** spec: guides §8 — a step not seen within guideSeenTimeoutLength. */
  stepTimedOut: (guideId: string, stepId: string) => `Guide ${guideId} timed out showing Step ${stepId}`,
  /** spec: guides §8 — 30 or more guide errors a minute. */
  errorRateExceeded: 'Exceeded error rate limit, dropping guide',
  /** spec: guides §5 — "logs a page rule exception": the spec names it, not its words; these are ours. */
  pageRuleException: 'Page rule exception',
  /** spec: guides §4 — an element-activated guide waited too long. */
  elementActivationTimeout: 'Element activated guide timeout exceeded',
  /** spec: guides §8 — the load response's global script (globalJsUrl) did not load. */
  globalScriptFailed: 'Error loading global script',
  /** spec: guides §8 — the load response's global CSS (guideCssUrl) not there after 5 seconds. */
  globalCssMissing: 'Unable to find global css after delay',
  /** spec: guides §8 — block-out regions that could not be drawn; the step shows without them. */
  blockOutFailed: BLOCK_OUT_FAILED,
  /** spec: guides §4 Control group. */
  controlGroup: 'Guide was not shown because this visitor is in a control group of an active experiment for the guide',
  /** spec: guides §8 — the launcher's badge image did not load (critical; the badge falls back to its mark). */
  launcherBadgeImageFailed: 'ERROR in when attempting to render guide center badge image',
  /** spec: guides §8 — a resource center module that cannot load: the resource center is skipped. */
  resourceCenterModulesFailed: RESOURCE_CENTER_MODULES_FAILED,
  /** spec: guides §8 — a launcher config or render that fails (critical; no launcher on the page). */
  launcherInitFailed: 'ERROR while initializing launcher',
} as const;
