/**
 * Reads a session's campaign parameters from its landing URL and referrer (spec: analytics §3 "Campaign
 * parameters stored: source, medium, campaign, term, content, channel, referrer"; §4 channel attribution).
 *
 * shared/ has no `URL` or `URLSearchParams`: the URL is split by `parseHref` and the query string is parsed
 * here, `application/x-www-form-urlencoded` style (`+` is a space, `%XX` decoded).
 */
import { parseHref } from '../privacy/applyUrlTransforms';
import { CLICK_IDS, normaliseHost, registrableDomain } from './channelSites';
import { classifyChannel, resolveTraffic, type Channel, type ChannelInput } from './classifyChannel';

/** A session's campaign parameters (spec: analytics §3). Text fields are absent rather than empty. */
export interface Campaign {
  /** `utm_source`, else the ad network of a click id, else the referrer (see `readCampaign`); lower case. */
  source?: string;
  /** `utm_medium`, else `cpc`/`paid` for an ad click id, else `organic` or `referral`; lower case. */
  medium?: string;
  /** `utm_campaign`, case kept. */
  campaign?: string;
  /** `utm_term`, case kept. */
  term?: string;
  /** `utm_content`, case kept. */
  content?: string;
  /** The channel the traffic is classified into (spec: analytics §4). */
  channel: Channel;
  /** The referrer as the browser gave it, when not empty. */
  referrer?: string;
}

/** Decodes one query component: `+` is a space, each well-formed `%XX` run is decoded, malformed ones kept as written. */
function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A stray `%` or a broken UTF-8 sequence: decode the runs that do decode, keep the rest as written.
    return spaced.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/**
 * The query of `search` (`'?a=1&b=2'`) as lower-cased key -> decoded, trimmed value. A key given twice keeps
 * its first non-empty value; empty values count as absent.
 */
function readQuery(search: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = decodeComponent(pair.slice(0, eq)).trim().toLowerCase();
    const value = decodeComponent(pair.slice(eq + 1)).trim();
    if (value !== '' && !params.has(key)) params.set(key, value);
  }
  return params;
}

/** The normalised host of an absolute URL, or `''` when it has none (empty referrer, `about:blank`). */
function hostOf(href: string): string {
  return normaliseHost(parseHref(href.trim()).hostname);
}

/**
 * The campaign parameters of a session that starts on `pageUrl`, arriving from `referrer` (`''` when none):
 * - `utm_source`, `utm_medium` (lower-cased), `utm_campaign`, `utm_term`, `utm_content` (case kept) from the
 *   query; the fragment is not read. Repeated keys: the first non-empty value wins.
 * - Ad click ids (`gclid`, `gbraid`, `wbraid`, `gad_source`, `msclkid`, `ttclid`, `li_fat_id`, `fbclid`; see
 *   `CLICK_IDS`) stand in for a missing source and medium.
 * - With no UTM parameter at all, an external referrer gives the source and medium (`resolveTraffic`). A
 *   referrer on the page's own site (same registrable domain, so `www.` and subdomains are ignored) is
 *   internal navigation, not a source: such a session counts as Direct unless tagged.
 * - `channel` is `classifyChannel` of the above.
 */
export function readCampaign(pageUrl: string, referrer: string): Campaign {
  const query = readQuery(parseHref(pageUrl).search);
  const campaign = query.get('utm_campaign');
  const term = query.get('utm_term');
  const content = query.get('utm_content');
  const utmSource = query.get('utm_source');
  const utmMedium = query.get('utm_medium');
  const tagged = [utmSource, utmMedium, campaign, term, content].some((v) => v !== undefined);

  const pageHost = hostOf(pageUrl);
  const refHost = hostOf(referrer);
  const external = refHost !== '' && (pageHost === '' || registrableDomain(refHost) !== registrableDomain(pageHost));

  const input: ChannelInput = {
    source: utmSource,
    medium: utmMedium,
    campaign,
    // Tagged links speak for themselves: the referrer only attributes untagged traffic (issue: "the referrer
    // host as source when there are no UTM parameters").
    referrerHost: !tagged && external ? refHost : undefined,
    clickIds: CLICK_IDS.map((row) => row.param).filter((param) => query.has(param)),
  };
  const { source, medium } = resolveTraffic(input);
  const result: Campaign = { channel: classifyChannel(input) };
  if (source !== '') result.source = source;
  if (medium !== '') result.medium = medium;
  if (campaign !== undefined) result.campaign = campaign;
  if (term !== undefined) result.term = term;
  if (content !== undefined) result.content = content;
  if (referrer.trim() !== '') result.referrer = referrer.trim();
  return result;
}

/**
 * The envelope's `utm` object for a campaign (wire protocol: `utm` is `{"channel":"Direct"}` and any campaign
 * fields): `channel` first, then each of source, medium, campaign, term, content, referrer that is a
 * non-empty string.
 */
export function toUtm(c: Campaign): Record<string, string> {
  const utm: Record<string, string> = { channel: c.channel };
  for (const key of ['source', 'medium', 'campaign', 'term', 'content', 'referrer'] as const) {
    const value = c[key];
    if (typeof value === 'string' && value !== '') utm[key] = value;
  }
  return utm;
}
