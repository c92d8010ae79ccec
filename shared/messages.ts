/**
 * Every message the spec words, spelled exactly as the spec spells it. Code logs these constants, and
 * tests assert them, so a drift from the spec's text fails a test.
 */
export const MESSAGES = {
  /** spec: guides §1 — no apiKey. */
  apiKeyMissing: 'API key is not set, Waymark will not initialize.',
  /** spec: guides §1 — repeated initialize. */
  initializeOnce: 'Waymark only needs to be initialized once.',
  /** spec: analytics §8 — non-2xx beacon. */
  badStatus: (status: number, text: string) => `received status code ${status}: ${text}`,
  /** spec: analytics §8 — an event too long even alone; its long fields are shortened and it is retried. */
  maxLengthExceeded: 'Max length exceeded for an event',
  /** spec: analytics §5. */
  invalidTrackName: 'Must provide valid name string for event tracking',
  invalidTrackType: 'Must provide valid type string for event tracking',
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
} as const;
