/**
 * What every analytics event goes through before it may leave the page, on either path out (the worker's
 * beacons and the shim's page-hide beacon): URL transforms (analytics §5), the privacy filter ('redacted'),
 * then the envelope. One function, so the two paths cannot drift apart.
 */
import { applyUrlTransforms, type UrlTransform } from '../privacy/applyUrlTransforms';
import type { EnvelopeContext } from './enrichEvent';
import type { CapturedEvent } from './events';
import { createEventSerializer } from './serializeEvent';

/** The filters an event passes through. Both lists are data: they cross to the worker as they are. */
export interface EventFilters {
  /** Data-only URL transforms (lists with host functions are applied by the shim at capture instead). */
  urlTransforms: readonly UrlTransform[];
  /** Compiled privacy filters (RegExps are structured-clonable). */
  privacyFilters: readonly RegExp[];
}

export const NO_FILTERS: EventFilters = { urlTransforms: [], privacyFilters: [] };

/**
 * A preparer: URL transforms with a one-entry memo of the last URL transformed (consecutive events share
 * their page), then the privacy filter and the envelope, written straight to JSON by `createEventSerializer`.
 */
export function createEventPreparer(filters: EventFilters): (captured: CapturedEvent, ctx: EnvelopeContext) => string {
  let lastIn = '';
  let lastOut = '';
  const { urlTransforms, privacyFilters } = filters;
  const serialize = createEventSerializer(privacyFilters);
  return (captured, ctx) => {
    if (urlTransforms.length && typeof captured.url === 'string') {
      if (captured.url !== lastIn) {
        lastIn = captured.url;
        lastOut = applyUrlTransforms(captured.url, urlTransforms);
      }
      captured = { ...captured, url: lastOut };
    }
    return serialize(captured, ctx);
  };
}
