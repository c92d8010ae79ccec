/**
 * Visitor, account and parent account metadata (analytics §3) as the agent sends it: given at initialize, and
 * again by identify with fields (`identify({ visitor: { id, plan } })`, a sign-in in a single-page app).
 */
import { AGENT_VERSION } from '../shared/constants';
import type { Metadata } from '../shared/protocol';
import type { EntityOptions } from './agentOptions';
import { jsonSafe } from './jsonSafe';

/**
 * The host's fields as plain data (shim/jsonSafe: a host's user object with methods once kept the agent from
 * sending anything at all).
 */
export function metadataOf(fields: { visitor?: EntityOptions; account?: EntityOptions; parentAccount?: EntityOptions }): Metadata {
  return { visitor: { ...jsonSafe(fields.visitor) }, account: { ...jsonSafe(fields.account) }, parentAccount: { ...jsonSafe(fields.parentAccount) } };
}

/** A meta event's props (wire-protocol.md "meta"): the metadata, the visitor's id and language, the date, the version. */
export function metaProps(visitorId: string, metadata: Metadata): Record<string, unknown> {
  return {
    ...metadata,
    visitor: { ...metadata.visitor, id: visitorId, language: navigator.language.replace('-', '_') },
    date: dayMonthYear(new Date()),
    version: AGENT_VERSION,
    selfHosted: true,
  };
}

/**
 * wire-protocol.md meta `date`, "22/11/2026": day/month/year with leading zeros, written out by hand because
 * the first `toLocaleDateString('en-GB')` of a page starts the locale data, ~20 ms of the host's main thread
 * (measured in headless Chromium here; issue #16's startup budget is 5 ms).
 */
export function dayMonthYear(d: Date): string {
  const two = (n: number) => (n < 10 ? '0' : '') + n;
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${d.getFullYear()}`;
}
