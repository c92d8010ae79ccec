/**
 * Every message the spec words, spelled exactly as the spec spells it, one export each. Code logs these, and
 * tests assert them, so a drift from the spec's text fails a test. Read them as `MESSAGES.name` (shared/messages.ts):
 * one export per message lets each bundle keep only the messages it says (an object's unused keys are not
 * tree-shaken; a namespace's unused exports are).
 */

/** spec: guides §1 — no apiKey. */
export const apiKeyMissing = 'API key is not set, Waymark will not initialize.';

/** spec: guides §1 — repeated initialize. */
export const initializeOnce = 'Waymark only needs to be initialized once.';

/** spec: analytics §5, §8 — configuration that must be arrays. */
export const inputSelectorsNotArray = 'inputCssSelectors must be an array';

export const submitSelectorsNotArray = 'submitCssSelectors must be an array';

/** spec: analytics §8 — the original's 'Pendo is currently disabled.' in Waymark's own words. */
export const agentDisabled = 'Waymark is currently disabled.';

/** spec: analytics §5. */
export const invalidTrackName = 'Must provide valid name string for event tracking';

export const invalidTrackType = 'Must provide valid type string for event tracking';

/** spec: analytics §5 — no usable visitor id at initialize; a generated anonymous id is used. */
export const missingVisitorId = 'Missing visitor id.';

/** spec: analytics §5 — an invalid visitor id is ignored and logged; `shown` is the value as the log shows it. */
export const invalidVisitorId = (shown: string) => `Invalid visitor id ${shown}, ignored.`;

/** spec: analytics §5 — an invalid account id clears the account. */
export const invalidAccountId = (shown: string) => `Invalid account id ${shown}, account cleared.`;

/** spec: analytics §3, §5 — an invalid parent account id is ignored: the account id is used alone. */
export const invalidParentAccountId = (shown: string) => `Invalid parent account id ${shown}, ignored.`;

/** spec: guides §5 Config — guide functions without the guides feature in the subscription. */
export const notInSubscription = 'This functionality is not supported by your subscription.';

/** spec: analytics §8 — a postMessage to another frame threw. */
export const postMessageFailed = 'Failed to postMessage';

/** spec: analytics §8 — a message of ours (its `waymark` field names our api key) without a type. */
export const missingType = 'Invalid Message: Missing type';

/** spec: analytics §8 — debug: the agent's own script URL is unknown (npm install), so no frame gets it. */
export const noAgentUrl = 'Unable to find agent url to install agent in frames';
/** spec: guides §8 — a cross-frame request (eligibility check, step to show, step action) was not answered in time. */
export const requestTimedOut = 'request timed out';

/** spec: analytics §8 — non-2xx beacon. */
export const badStatus = (status: number, text: string) => `received status code ${status}: ${text}`;

/** spec: analytics §8 — an event too long even alone; its long fields are shortened and it is retried. */
export const maxLengthExceeded = 'Max length exceeded for an event';

/** spec: guides §5 — content without type, children and props. */
export const contentNotJson = 'Response from the guide was not in proper JSON format';

/** spec: guides §8 — content fetch failure. */
export const contentLoadFailed = 'Failed to load content';

/** spec: guides §8. */
export const loadGuideFailed = 'Post loadGuide request failed';

/** spec: guides §8 info level. */
export const noElementForStep = 'No element found for step';

/** spec: analytics §5 — a URL transform whose attr is not one of the six URL attributes. */
export const invalidUrlAttr = 'Invalid URL attribute type';

/** spec: analytics §5 — an action not allowed for the attr, or its data missing or of the wrong kind. */
export const invalidTransformAction = 'Invalid transform action';

/** spec: analytics §5 — a URL transform that is not an object, or has no attr. */
export const missingAttr = 'missing required attr property';

/** spec: analytics §5 — a URL transform without an action. */
export const missingAction = 'missing required action property';

/** spec: analytics §5 — a custom URL source that is not a URL, a string, or a function returning one. */
export const invalidCustomUrl = 'Invalid type from custom URL source';

/** spec: analytics §5 Config, §8 — a privacy filter that is not a usable regular expression (or list of them). */
export const invalidPrivacyFilter = 'Invalid privacy filter for agent';

/** spec: analytics §5 — signed metadata: jwt without signingKeyName. */
export const jwtWithoutSigningKeyName = 'Signed metadata has a jwt but no signingKeyName';

/** spec: analytics §5 — signed metadata: signingKeyName without jwt. */
export const signingKeyNameWithoutJwt = 'Signed metadata has a signingKeyName but no jwt';

/** spec: analytics §5 — a jwt that is not three dot-separated URL-safe base64 parts. */
export const invalidJwt = 'Signed metadata jwt must be three dot-separated URL-safe base64 parts';

/** spec: analytics §5 — a signingKeyName that is not a non-blank string. */
export const invalidSigningKeyName = 'Signed metadata signingKeyName must be a non-empty string';

/** spec: analytics §4 — signed metadata is required and none was given: the action is refused. */
export const signedMetadataRequired = 'Signed metadata is required but no jwt and signingKeyName were given';

/** spec: analytics §8 — a segmentflag.json request failed (status, network, or response shape). */
export const segmentFlagsFailed = 'Failed to load segment flags';

/** spec: guides §7, §8 — the guide.gif availability probe failed; guides stay blocked for 4 hours. */
export const guidesUnreachable = 'Guides disabled: unreachable endpoint guide.gif';

/** spec: guides §8 — callback messages of a refused guide load. */
export const guidesBlocked = 'error: guides are blocked';

export const invalidGuideUrl = 'error: invalid url';

/** spec: guides §5, §8 — a content or resource hash that does not verify; the guide is marked failed. */
export const unableToVerifyContent = (url: string) => `Unable to verify content at ${url}`;

/** spec: guides §8 — a content script that did not load. */
export const scriptLoadFailed = 'Failed to load script';

/** spec: guides §8 — a stylesheet still loading after 10 seconds. */
export const stylesheetTimeout = (url: string) => `Failed to load ${url} within 10 seconds`;

/** spec: guides §8 — a content URL that does not parse. */
export const unableToParse = (url: string) => `unable to parse ${url}`;

/** spec: guides §5 — a building-block prop outside the allow-list (and not data-* or aria-*). */
export const illegalBuildingBlockKey = (key: string, guideId: string, stepId: string) =>
    `illegal building block key ${key} found on guide ${guideId} step ${stepId}`;

/** spec: guides §4 Continuation — a last-seen record older than 12 hours, logged once. */
export const continuationExpired = 'Multi-step continuation has expired';

/** spec: guides §8 — a step not seen within guideSeenTimeoutLength. */
export const stepTimedOut = (guideId: string, stepId: string) => `Guide ${guideId} timed out showing Step ${stepId}`;

/** spec: guides §8 — 30 or more guide errors a minute. */
export const errorRateExceeded = 'Exceeded error rate limit, dropping guide';

/** spec: guides §5 — "logs a page rule exception": the spec names it, not its words; these are ours. */
export const pageRuleException = 'Page rule exception';

/** spec: guides §4 — an element-activated guide waited too long. */
export const elementActivationTimeout = 'Element activated guide timeout exceeded';

/** spec: guides §8 — the load response's global script (globalJsUrl) did not load. */
export const globalScriptFailed = 'Error loading global script';
/** spec: guides §5 — addGlobalScript without a script or beforeMount function, or a test or regex of the wrong kind. */
export const invalidGlobalScript = 'Error adding invalid GlobalScript via API';

/** spec: guides §8 — the load response's global CSS (guideCssUrl) not there after 5 seconds. */
export const globalCssMissing = 'Unable to find global css after delay';

/** spec: guides §8 — block-out regions that could not be drawn; the step shows without them. */
export const blockOutFailed = 'Failed to add BlockOut ui';

/** spec: guides §4 Control group. */
export const controlGroup = 'Guide was not shown because this visitor is in a control group of an active experiment for the guide';

/** spec: guides §8 — the launcher's badge image did not load (critical; the badge falls back to its mark). */
export const launcherBadgeImageFailed = 'ERROR in when attempting to render guide center badge image';

/** spec: guides §8 — a resource center module that cannot load: the resource center is skipped. */
export const resourceCenterModulesFailed = 'Failed to load one or more Resource Center modules';

/** spec: guides §8 — a launcher config or render that fails (critical; no launcher on the page). */
export const launcherInitFailed = 'ERROR while initializing launcher';

/** spec: guides §6 — config disableDesigner blocks every designer launch. */
export const designerDisabled = 'Unable to launch the Visual Design Studio, set to disabled in configuration.';

/** spec: guides §8 — a designer launch in a child frame without allowChildFrame or selectionOnly. */
export const designerChildFrame = 'skipping designer launch from a child frame. pass `allowChildFrame: true` to override';

/** spec: guides §8 — "an error that the agent has not been initialized": the spec names it, these words are ours. */
export const designerNotInitialized = 'Waymark has not been initialized: call waymark.initialize() before launching the designer';

/** spec: guides §2 Designer — the launch modal's body text. */
export const designerModalText = "Thanks for letting us know you're here. We're ready to try this again. Launch Designer below to begin.";

/** spec: guides §8 Preview — a preview message from another origin, or one whose preview names another origin. */
export const previewInvalidOrigin = 'invalid origin';

/** spec: guides §8 Preview — a preview whose page URL does not parse or is not http(s). */
export const previewInvalidGuideUrl = 'invalid guide url';

/** spec: guides §8 Preview — the preview endpoint's 404, shown by the preview bar. */
export const previewGuideNotFound = 'Guide not found';

/** spec: analytics §4 debugging toggles — the replies. */
export const debuggingAlreadyEnabled = 'debugging already enabled';
export const debuggingEnabled = 'debugging enabled';
export const debuggingAlreadyDisabled = 'debugging already disabled';
export const debuggingDisabled = 'debugging disabled';

/** spec: analytics §4 "Only the leader frame enables or disables debugging": a follower frame's call. Our words. */
export const debuggingLeaderOnly = 'debugging is switched by the top (leader) frame: call it there';

/**
 * spec: guides §5 ("loading modules is limited to an allow-listed set of designer plugin paths"), §8: a designer
 * plugin named anywhere else than the agent's server under /data/designer-plugins/ is not loaded.
 */
export const invalidModuleUrl = 'Invalid module URL';
