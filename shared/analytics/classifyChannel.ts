/**
 * Channel attribution: which of the spec's 19 channels a session's traffic came from (spec: analytics §4
 * "Channel attribution classifies traffic into: Direct, ..., Other. Classification rules: not shown").
 *
 * The spec gives no rules, so the issue has us follow GA4's default channel group as publicly described:
 * an ordered list of definitions over source, medium and campaign name, the first that matches wins and
 * nothing matching is "Other" (GA4 calls it "Unassigned"). Each definition is a small named rule in
 * `CHANNEL_RULES`, run by the loop in `classifyChannel` (STYLE §3). Matching is case-insensitive, as GA4's is.
 *
 * Before the rules run, `resolveTraffic` fills a missing source and medium the way GA4 fills them for
 * untagged traffic: from an ad click id on the landing URL, else from the referrer host.
 */
import { CLICK_IDS, findSite, normaliseHost, SEARCH_SITES, SHOPPING_SITES, SOCIAL_SITES, stripWww, VIDEO_SITES } from './channelSites';

/** A traffic channel, spelt exactly as spec: analytics §4 lists them. */
export type Channel =
  | 'Direct'
  | 'Cross-network'
  | 'Paid Search'
  | 'Paid Social'
  | 'Paid Video'
  | 'Paid Shopping'
  | 'Display'
  | 'Paid Other'
  | 'Organic Search'
  | 'Organic Social'
  | 'Organic Video'
  | 'Organic Shopping'
  | 'Email'
  | 'Affiliates'
  | 'SMS'
  | 'Push Notifications'
  | 'Audio'
  | 'Referral'
  | 'Other';

/** All 19 channels in the order they are tested (GA4's default channel group order), `Other` last. */
export const CHANNELS: readonly Channel[] = [
  'Direct',
  'Cross-network',
  'Paid Shopping',
  'Paid Search',
  'Paid Social',
  'Paid Video',
  'Display',
  'Paid Other',
  'Organic Shopping',
  'Organic Social',
  'Organic Video',
  'Organic Search',
  'Referral',
  'Email',
  'Affiliates',
  'Audio',
  'SMS',
  'Push Notifications',
  'Other',
];

/** What a session's traffic is classified from (spec: analytics §3 campaign parameters). */
export interface ChannelInput {
  /** `utm_source`, or a source already resolved by `resolveTraffic`. */
  source?: string;
  /** `utm_medium`, or a medium already resolved by `resolveTraffic`. */
  medium?: string;
  /** `utm_campaign`. */
  campaign?: string;
  /** Host of an external referrer; used only to fill a missing source and medium. */
  referrerHost?: string;
  /** Names of the click-id query parameters present on the landing URL (`'gclid'`), see `CLICK_IDS`. */
  clickIds?: readonly string[];
}

/** Source, medium and campaign as the rules read them: trimmed, lower-cased, `''` when absent. */
export interface TrafficFacts {
  source: string;
  medium: string;
  campaign: string;
}

/** One channel definition: the channel it assigns and the test over the traffic facts. */
export interface ChannelRule {
  channel: Exclude<Channel, 'Other'>;
  /** The definition in words, for debugging output. */
  definition: string;
  matches(facts: TrafficFacts): boolean;
}

/** GA4's paid medium: `^(.*cp.*|ppc|retargeting|paid.*)$`. */
const PAID_MEDIUM = /cp|^(ppc|retargeting)$|^paid/;
/** GA4's shopping campaign name: `^(.*(([^a-df-z]|^)shop|shopping).*)$` (so "eshop" counts, "workshop" does not). */
const SHOPPING_CAMPAIGN = /(^|[^a-df-z])shop|shopping/;
const DISPLAY_MEDIA = ['display', 'banner', 'expandable', 'interstitial', 'cpm'];
const SOCIAL_MEDIA = ['social', 'social-network', 'social-media', 'sm', 'social network', 'social media'];
const EMAIL_NAMES = ['email', 'e-mail', 'e_mail', 'e mail'];
// Older GA definitions accept the plural as well; it is unambiguous, so both count.
const AFFILIATE_MEDIA = ['affiliate', 'affiliates'];
const REFERRAL_MEDIA = ['referral', 'app', 'link'];
// GA4 reports untagged direct traffic as (direct) / (none); (not set) is its placeholder for a missing value.
const EMPTY_SOURCES = ['', '(direct)'];
const EMPTY_MEDIA = ['', '(none)', '(not set)'];
const EMPTY_CAMPAIGNS = ['', '(direct)', '(not set)'];

const isPaid = (f: TrafficFacts) => PAID_MEDIUM.test(f.medium);
const isShopping = (f: TrafficFacts) => findSite(SHOPPING_SITES, f.source) !== undefined || SHOPPING_CAMPAIGN.test(f.campaign);
const isSearch = (f: TrafficFacts) => findSite(SEARCH_SITES, f.source) !== undefined;
const isSocial = (f: TrafficFacts) => findSite(SOCIAL_SITES, f.source) !== undefined;
const isVideo = (f: TrafficFacts) => findSite(VIDEO_SITES, f.source) !== undefined;

/**
 * The channel definitions in GA4's order; the first that matches wins (spec: analytics §4, rules per the
 * issue). `Other` has no rule: it is what is left.
 */
export const CHANNEL_RULES: readonly ChannelRule[] = [
  {
    channel: 'Direct',
    // Campaign-tagged traffic with no source is not Direct: GA4 would give it source "(not set)".
    definition: 'no source (or "(direct)"), medium none or "(not set)", no campaign',
    matches: (f) => EMPTY_SOURCES.includes(f.source) && EMPTY_MEDIA.includes(f.medium) && EMPTY_CAMPAIGNS.includes(f.campaign),
  },
  {
    channel: 'Cross-network',
    definition: 'campaign contains "cross-network"',
    matches: (f) => f.campaign.includes('cross-network'),
  },
  {
    channel: 'Paid Shopping',
    definition: '(shopping site source or shopping campaign) and paid medium',
    matches: (f) => isShopping(f) && isPaid(f),
  },
  { channel: 'Paid Search', definition: 'search site source and paid medium', matches: (f) => isSearch(f) && isPaid(f) },
  { channel: 'Paid Social', definition: 'social site source and paid medium', matches: (f) => isSocial(f) && isPaid(f) },
  { channel: 'Paid Video', definition: 'video site source and paid medium', matches: (f) => isVideo(f) && isPaid(f) },
  {
    channel: 'Display',
    definition: 'medium is display, banner, expandable, interstitial or cpm',
    matches: (f) => DISPLAY_MEDIA.includes(f.medium),
  },
  { channel: 'Paid Other', definition: 'paid medium', matches: isPaid },
  { channel: 'Organic Shopping', definition: 'shopping site source or shopping campaign', matches: isShopping },
  {
    channel: 'Organic Social',
    definition: 'social site source or social medium',
    matches: (f) => isSocial(f) || SOCIAL_MEDIA.includes(f.medium),
  },
  {
    channel: 'Organic Video',
    definition: 'video site source or medium contains "video"',
    matches: (f) => isVideo(f) || f.medium.includes('video'),
  },
  {
    channel: 'Organic Search',
    definition: 'search site source or medium "organic"',
    matches: (f) => isSearch(f) || f.medium === 'organic',
  },
  {
    channel: 'Referral',
    definition: 'medium is referral, app or link',
    matches: (f) => REFERRAL_MEDIA.includes(f.medium),
  },
  {
    channel: 'Email',
    definition: 'source or medium is email, e-mail, e_mail or "e mail"',
    matches: (f) => EMAIL_NAMES.includes(f.source) || EMAIL_NAMES.includes(f.medium),
  },
  { channel: 'Affiliates', definition: 'medium is affiliate', matches: (f) => AFFILIATE_MEDIA.includes(f.medium) },
  { channel: 'Audio', definition: 'medium is audio', matches: (f) => f.medium === 'audio' },
  { channel: 'SMS', definition: 'source or medium is sms', matches: (f) => f.source === 'sms' || f.medium === 'sms' },
  {
    channel: 'Push Notifications',
    definition: 'medium ends with "push" or contains "mobile" or "notification", or source is firebase',
    matches: (f) =>
      f.medium.endsWith('push') || f.medium.includes('mobile') || f.medium.includes('notification') || f.source === 'firebase',
  },
];

/** Trimmed and lower-cased, `''` for absent. */
function clean(value: string | undefined): string {
  return (value ?? '').trim().toLowerCase();
}

/**
 * Source, medium and campaign as the rules read them, with the gaps filled in this order:
 * 1. the given `source` / `medium` (the page's UTM parameters) always win;
 * 2. a click id (first present row of `CLICK_IDS`) fills a missing medium, and a missing source when the
 *    medium is missing or paid: `?gclid=x` is google / cpc, but `?utm_medium=email&gclid=x` stays Email;
 * 3. the referrer host fills what is still missing: a search engine as its name with medium `organic`
 *    (`www.google.co.uk` -> google / organic), any other host without `www.` with medium `referral`.
 */
export function resolveTraffic(input: ChannelInput): TrafficFacts {
  let source = clean(input.source);
  let medium = clean(input.medium);
  const ids = (input.clickIds ?? []).map(clean);
  const click = CLICK_IDS.find((row) => ids.includes(row.param));
  if (click) {
    if (source === '' && (medium === '' || PAID_MEDIUM.test(medium))) source = click.source;
    if (medium === '' && click.medium) medium = click.medium;
  }
  const host = stripWww(normaliseHost(input.referrerHost ?? ''));
  if (host !== '') {
    const engine = findSite(SEARCH_SITES, host);
    if (source === '') source = engine ? engine.source : host;
    if (medium === '') medium = engine ? 'organic' : 'referral';
  }
  return { source, medium, campaign: clean(input.campaign) };
}

/**
 * The channel of a session's traffic (spec: analytics §4): `resolveTraffic`, then the first of
 * `CHANNEL_RULES` that matches, else `'Other'`. Case-insensitive throughout.
 */
export function classifyChannel(input: ChannelInput): Channel {
  const facts = resolveTraffic(input);
  for (const rule of CHANNEL_RULES) {
    if (rule.matches(facts)) return rule.channel;
  }
  return 'Other';
}
