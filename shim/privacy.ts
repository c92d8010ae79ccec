/**
 * Entry of dist/agent/waymark.privacy.js: the page side of URL transforms, the custom URL source and the
 * privacy filter (analytics §5). A chunk of its own, imported by the shim only when one of those options is
 * set, so hosts without them never load the code; the agent starts once it is here.
 */
import { applyUrlTransforms, checkUrlTransform, hasFunctionData, type UrlTransform } from '../shared/privacy/applyUrlTransforms';
import type { EnvelopeContext } from '../shared/events/enrichEvent';
import type { CapturedEvent } from '../shared/events/events';
import { createEventPreparer, type EventFilters } from '../shared/events/prepareEvent';
import { checkPrivacyFilter, compilePrivacyFilter } from '../shared/privacy/privacyFilter';
import type { LogLevel } from '../shared/protocol';
import { resolveCustomUrl } from '../shared/privacy/resolveCustomUrl';

/** The privacy options of `initialize`, as this module reads them. */
export interface PrivacyOptions {
  urlTransforms?: UrlTransform[];
  customUrl?: unknown;
  privacyFilter?: unknown;
}

/** What the agent uses of this module. */
export interface PagePrivacy {
  /** The URL an event reports: the custom URL source, then transforms with host functions. */
  pageUrl(): string;
  /** The data-only filters, sent to the worker. */
  filters: EventFilters;
  /** What the page-hide path does to an event: exactly what the worker does. */
  prepare(event: CapturedEvent, ctx: EnvelopeContext): string;
}

export interface PrivacyModule {
  createPagePrivacy(options: PrivacyOptions, log: (level: LogLevel, message: string) => void): PagePrivacy;
}

/** Validates the options once, logging the spec's messages for what is invalid, and keeps the rest. */
export const createPagePrivacy: PrivacyModule['createPagePrivacy'] = (options, log) => {
  const transforms: UrlTransform[] = [];
  for (const t of Array.isArray(options.urlTransforms) ? options.urlTransforms : []) {
    const problem = checkUrlTransform(t);
    if (problem) log('error', `${problem}: ${JSON.stringify(t)}`);
    else transforms.push(t);
  }
  let privacyFilters: RegExp[] = [];
  if (options.privacyFilter !== undefined) {
    const problem = checkPrivacyFilter(options.privacyFilter);
    if (problem) log('error', problem);
    else privacyFilters = compilePrivacyFilter(options.privacyFilter) ?? [];
  }
  const onPage = hasFunctionData(transforms);
  const customUrl = options.customUrl;
  let customUrlLogged = false;
  let memoIn = '';
  let memoOut = '';
  const pageUrl = (): string => {
    let url = document.URL;
    if (customUrl !== undefined) {
      const resolved = resolveCustomUrl(customUrl);
      if (resolved.ok) url = resolved.href;
      else if (!customUrlLogged) {
        customUrlLogged = true;
        log('error', resolved.error);
      }
    }
    if (!onPage) return url;
    if (url !== memoIn) {
      memoIn = url;
      memoOut = applyUrlTransforms(url, transforms);
    }
    return memoOut;
  };
  // Host functions never cross to the worker: a list with one runs here, whole, and the worker gets none.
  const filters: EventFilters = { urlTransforms: onPage ? [] : transforms, privacyFilters };
  return { pageUrl, filters, prepare: createEventPreparer(filters) };
};
