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
} as const;
