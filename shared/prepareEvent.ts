/**
 * What every analytics event goes through before it may leave the page, on either path out (the worker's
 * beacons and the shim's page-hide beacon): URL transforms (analytics §5), the privacy filter ('redacted'),
 * then the envelope. One function, so the two paths cannot drift apart.
 */
import { applyUrlTransforms, type UrlTransform } from './applyUrlTransforms';
import { enrichEvent, type EnvelopeContext, type SerializedEvent } from './enrichEvent';
import type { ElementPath } from './elementPath';
import type { CapturedEvent } from './events';
import { redact } from './privacyFilter';

/** The filters an event passes through. Both lists are data: they cross to the worker as they are. */
export interface EventFilters {
  /** Data-only URL transforms (lists with host functions are applied by the shim at capture instead). */
  urlTransforms: readonly UrlTransform[];
  /** Compiled privacy filters (RegExps are structured-clonable). */
  privacyFilters: readonly RegExp[];
}

export const NO_FILTERS: EventFilters = { urlTransforms: [], privacyFilters: [] };

/** A preparer with a one-entry memo of the last URL transformed: consecutive events share their page. */
export function createEventPreparer(filters: EventFilters): (captured: CapturedEvent, ctx: EnvelopeContext) => SerializedEvent {
  let lastIn = '';
  let lastOut = '';
  const { urlTransforms, privacyFilters } = filters;
  return (captured, ctx) => {
    let event = captured;
    if (urlTransforms.length) {
      if (captured.url !== lastIn) {
        lastIn = captured.url;
        lastOut = applyUrlTransforms(captured.url, urlTransforms);
      }
      event = { ...event, url: lastOut };
    }
    if (privacyFilters.length) {
      event = {
        ...event,
        url: redact(event.url, privacyFilters) as string,
        props: redact(event.props, privacyFilters) as Record<string, unknown>,
        element: event.element ? (redact(event.element, privacyFilters) as ElementPath) : undefined,
      };
    }
    return enrichEvent(event, ctx);
  };
}
