/**
 * The site lists and click ids that channel attribution reads (spec: analytics §4 "Channel attribution
 * classifies traffic into ..."; the spec shows no rules, so the issue has us follow GA4's default channel
 * group, whose Search/Social/Video/Shopping rules test the source against lists of sites).
 *
 * The lists are data, written for Waymark: a few dozen well-known sites each, never a copy of GA4's own list.
 * A source matches a site by one of its names (`utm_source=fb`) or, when it looks like a host name
 * (`l.facebook.com`, a referrer host), by domain: see `findSite`.
 *
 * shared/ has no `URL` and no public-suffix list, so `registrableDomain` approximates "the site a host belongs
 * to" with a short list of second-level labels (`co.uk`, `com.au`) and of hosting domains whose subdomains
 * belong to different owners (`github.io`).
 */

/** One well-known site of a channel list. */
export interface ChannelSite {
  /** The source name reports use for the site (`'google'`), also what a search engine referrer is recorded as. */
  source: string;
  /** Other `utm_source` spellings that mean this site (`'fb'`, `'ig'`). */
  aliases?: readonly string[];
  /**
   * Domains of the site. `'facebook.com'` matches that host and every subdomain of it (`m.facebook.com`);
   * `'google.*'` matches the name under any public suffix (`google.com`, `www.google.co.uk`).
   */
  domains: readonly string[];
  /** Hosts (and their subdomains) under `domains` that are not this kind of site: Gmail is not a search engine. */
  except?: readonly string[];
}

/** Search engines (GA4 rules "Paid Search" and "Organic Search": source matches a list of search sites). */
export const SEARCH_SITES: readonly ChannelSite[] = [
  {
    source: 'google',
    domains: ['google.*'],
    except: [
      'mail.google.com', 'accounts.google.com', 'docs.google.com', 'drive.google.com', 'sites.google.com',
      'groups.google.com', 'calendar.google.com', 'meet.google.com', 'play.google.com', 'shopping.google.com',
    ],
  },
  { source: 'bing', aliases: ['microsoft bing'], domains: ['bing.*'] },
  { source: 'yahoo', domains: ['yahoo.*'], except: ['mail.yahoo.com', 'login.yahoo.com', 'shopping.yahoo.com'] },
  { source: 'duckduckgo', aliases: ['ddg'], domains: ['duckduckgo.com', 'ddg.gg'] },
  { source: 'baidu', domains: ['baidu.*'] },
  { source: 'yandex', domains: ['yandex.*', 'ya.ru'], except: ['mail.yandex.ru', 'market.yandex.ru'] },
  { source: 'ecosia', domains: ['ecosia.org'] },
  { source: 'naver', domains: ['search.naver.com', 'm.search.naver.com'] },
  { source: 'daum', domains: ['search.daum.net'] },
  { source: 'seznam', domains: ['search.seznam.cz'] },
  { source: 'qwant', domains: ['qwant.com'] },
  { source: 'startpage', domains: ['startpage.com'] },
  { source: 'brave', domains: ['search.brave.com'] },
  { source: 'ask', domains: ['ask.com'] },
  { source: 'aol', domains: ['search.aol.com'] },
  { source: 'sogou', domains: ['sogou.com'] },
  { source: '360', aliases: ['so.com'], domains: ['so.com'] },
  { source: 'mojeek', domains: ['mojeek.com'] },
  { source: 'kagi', domains: ['kagi.com'] },
  { source: 'coccoc', domains: ['coccoc.com'] },
  { source: 'lycos', domains: ['search.lycos.com'] },
  { source: 'dogpile', domains: ['dogpile.com'] },
  { source: 'rambler', domains: ['nova.rambler.ru'] },
  { source: 'yep', domains: ['yep.com'] },
  { source: 'petal', aliases: ['petal search'], domains: ['petalsearch.com'] },
  { source: 'metager', domains: ['metager.org', 'metager.de'] },
];

/** Social networks (GA4 rules "Paid Social" and "Organic Social"). */
export const SOCIAL_SITES: readonly ChannelSite[] = [
  { source: 'facebook', aliases: ['fb', 'meta'], domains: ['facebook.com', 'fb.com', 'fb.me', 'messenger.com'] },
  { source: 'instagram', aliases: ['ig'], domains: ['instagram.com'] },
  { source: 'linkedin', aliases: ['li'], domains: ['linkedin.com', 'lnkd.in'] },
  { source: 'twitter', aliases: ['x', 'tw'], domains: ['twitter.com', 'x.com', 't.co'] },
  { source: 'reddit', domains: ['reddit.com', 'redd.it'] },
  { source: 'pinterest', domains: ['pinterest.*', 'pin.it'] },
  { source: 'tiktok', domains: ['tiktok.com'] },
  { source: 'snapchat', domains: ['snapchat.com'] },
  { source: 'threads', domains: ['threads.net', 'threads.com'] },
  { source: 'bluesky', aliases: ['bsky'], domains: ['bsky.app'] },
  { source: 'mastodon', domains: ['mastodon.social', 'mastodon.online'] },
  { source: 'tumblr', domains: ['tumblr.com'] },
  { source: 'quora', domains: ['quora.com'] },
  { source: 'whatsapp', domains: ['whatsapp.com', 'wa.me'] },
  { source: 'telegram', domains: ['t.me', 'telegram.org'] },
  { source: 'discord', domains: ['discord.com', 'discord.gg'] },
  { source: 'vk', aliases: ['vkontakte'], domains: ['vk.com'] },
  { source: 'weibo', domains: ['weibo.com', 'weibo.cn'] },
  { source: 'wechat', aliases: ['weixin'], domains: ['weixin.qq.com'] },
  { source: 'line', domains: ['line.me'] },
  { source: 'xing', domains: ['xing.com'] },
  { source: 'nextdoor', domains: ['nextdoor.com'] },
  { source: 'medium.com', domains: ['medium.com'] },
  { source: 'stackoverflow', domains: ['stackoverflow.com', 'stackexchange.com'] },
  { source: 'hackernews', aliases: ['hn'], domains: ['news.ycombinator.com'] },
  { source: 'producthunt', domains: ['producthunt.com'] },
  { source: 'meetup', domains: ['meetup.com'] },
];

/** Video platforms (GA4 rules "Paid Video" and "Organic Video"). */
export const VIDEO_SITES: readonly ChannelSite[] = [
  { source: 'youtube', aliases: ['yt'], domains: ['youtube.com', 'youtu.be', 'youtube-nocookie.com'] },
  { source: 'vimeo', domains: ['vimeo.com'] },
  { source: 'twitch', domains: ['twitch.tv'] },
  { source: 'dailymotion', domains: ['dailymotion.com', 'dai.ly'] },
  { source: 'netflix', domains: ['netflix.com'] },
  { source: 'bilibili', domains: ['bilibili.com', 'b23.tv'] },
  { source: 'wistia', domains: ['wistia.com', 'wistia.net'] },
  { source: 'rumble', domains: ['rumble.com'] },
  { source: 'ted', domains: ['ted.com'] },
  { source: 'iqiyi', domains: ['iqiyi.com'] },
  { source: 'youku', domains: ['youku.com'] },
  { source: 'nicovideo', domains: ['nicovideo.jp', 'nico.ms'] },
  { source: 'kick', domains: ['kick.com'] },
  { source: 'loom', domains: ['loom.com'] },
  { source: 'vidyard', domains: ['vidyard.com'] },
  { source: 'hulu', domains: ['hulu.com'] },
  { source: 'disneyplus', domains: ['disneyplus.com'] },
  { source: 'primevideo', domains: ['primevideo.com'] },
];

/** Shopping sites and marketplaces (GA4 rules "Paid Shopping" and "Organic Shopping"). */
export const SHOPPING_SITES: readonly ChannelSite[] = [
  { source: 'amazon', domains: ['amazon.*', 'amzn.to'], except: ['aws.amazon.com', 'developer.amazon.com'] },
  { source: 'ebay', domains: ['ebay.*'] },
  { source: 'etsy', domains: ['etsy.com'] },
  { source: 'walmart', domains: ['walmart.*'] },
  { source: 'shopify', domains: ['shopify.com', 'shop.app'] },
  { source: 'google shopping', domains: ['shopping.google.com'] },
  { source: 'aliexpress', domains: ['aliexpress.*'] },
  { source: 'alibaba', domains: ['alibaba.com'] },
  { source: 'target', domains: ['target.com'] },
  { source: 'bestbuy', domains: ['bestbuy.com'] },
  { source: 'mercadolibre', domains: ['mercadolibre.*', 'mercadolivre.com.br'] },
  { source: 'rakuten', domains: ['rakuten.*'] },
  { source: 'temu', domains: ['temu.com'] },
  { source: 'shein', domains: ['shein.com'] },
  { source: 'zalando', domains: ['zalando.*'] },
  { source: 'wayfair', domains: ['wayfair.com'] },
  { source: 'costco', domains: ['costco.com'] },
  { source: 'flipkart', domains: ['flipkart.com'] },
  { source: 'taobao', domains: ['taobao.com'] },
  { source: 'tmall', domains: ['tmall.com'] },
  { source: 'jd', domains: ['jd.com'] },
  { source: 'allegro', domains: ['allegro.pl'] },
  { source: 'bol', domains: ['bol.com'] },
  { source: 'otto', domains: ['otto.de'] },
  { source: 'idealo', domains: ['idealo.*'] },
  { source: 'newegg', domains: ['newegg.com'] },
  { source: 'mercari', domains: ['mercari.com'] },
  { source: 'groupon', domains: ['groupon.*'] },
];

/**
 * What an ad network's click id on the landing URL says about the click. `medium` is set only where the id
 * marks an ad click; `fbclid` has none because Facebook appends it to organic outbound links as well, so it
 * names the source but a paid medium must come from `utm_medium` (decision for Waymark; GA4 documents no
 * rule for it). Listed in precedence order: when a URL holds several, the first row that is present wins.
 */
export const CLICK_IDS: readonly { param: string; source: string; medium?: string }[] = [
  // Google Ads auto-tagging: gclid on the web, gbraid/wbraid for iOS app and web-to-app, gad_source beside them.
  { param: 'gclid', source: 'google', medium: 'cpc' },
  { param: 'gbraid', source: 'google', medium: 'cpc' },
  { param: 'wbraid', source: 'google', medium: 'cpc' },
  { param: 'gad_source', source: 'google', medium: 'cpc' },
  { param: 'msclkid', source: 'bing', medium: 'cpc' },
  { param: 'ttclid', source: 'tiktok', medium: 'paid' },
  { param: 'li_fat_id', source: 'linkedin', medium: 'paid' },
  { param: 'fbclid', source: 'facebook' },
];

/** Second-level labels under which a country TLD sells names (`example.co.uk`, `example.com.au`). */
const SECOND_LEVEL_LABELS = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'ne', 'or', 'go', 'gob', 'nic', 'ltd', 'plc']);

/** Hosting domains whose subdomains belong to unrelated owners: `a.github.io` is not the same site as `b.github.io`. */
const SHARED_HOST_SUFFIXES = [
  'github.io', 'gitlab.io', 'vercel.app', 'netlify.app', 'pages.dev', 'workers.dev', 'herokuapp.com', 'web.app',
  'firebaseapp.com', 'appspot.com', 'blogspot.com', 'wordpress.com', 'azurewebsites.net', 'cloudfront.net',
  'onrender.com', 'fly.dev', 'myshopify.com', 'wixsite.com', 'substack.com',
];

/** Lower-cases a host name and drops a trailing root dot; the port must already be gone. */
export function normaliseHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

/** The host without a leading `www.` label, as the source of a referral is recorded. */
export function stripWww(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** True for IPv4 and bracketed or bare IPv6 literals, which have no registrable part. */
function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':') || host.startsWith('[');
}

/**
 * The registrable part of a host, the name its owner bought: `www.google.co.uk` -> `google.co.uk`,
 * `app.example.com` -> `example.com`, `alice.github.io` -> `alice.github.io`. IP literals and one-label hosts
 * (`localhost`) come back whole. An approximation without the public-suffix list (see the file comment).
 */
export function registrableDomain(host: string): string {
  const h = normaliseHost(host);
  if (isIpLiteral(h)) return h;
  const labels = h.split('.');
  for (const suffix of SHARED_HOST_SUFFIXES) {
    if (h.endsWith(`.${suffix}`)) return labels.slice(-(suffix.split('.').length + 1)).join('.');
  }
  const n = labels.length;
  const keep = n >= 3 && labels[n - 1].length === 2 && SECOND_LEVEL_LABELS.has(labels[n - 2]) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/**
 * The owner's name in a host, the first label of its registrable part (`www.google.co.uk` -> `google`), or
 * undefined where a `name.*` pattern must not apply: IP literals, one-label hosts, and shared hosting domains.
 */
function brandOf(host: string): string | undefined {
  const domain = registrableDomain(host);
  if (isIpLiteral(domain) || !domain.includes('.')) return undefined;
  if (SHARED_HOST_SUFFIXES.some((suffix) => domain.endsWith(`.${suffix}`))) return undefined;
  return domain.split('.')[0];
}

/** True when `host` is `domain` or one of its subdomains. */
function isUnder(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** True when the host matches one of the site's domains and none of its exceptions. */
function hostMatches(site: ChannelSite, host: string): boolean {
  if (site.except?.some((e) => isUnder(host, e))) return false;
  return site.domains.some((d) => (d.endsWith('.*') ? brandOf(host) === d.slice(0, -2) : isUnder(host, d)));
}

/**
 * The site of `list` that a source or host names, case-insensitively, or undefined. A value equal to a
 * site's `source` or an alias matches by name (`google`, `fb`); a value with a dot is also tried as a host,
 * subdomains included (`m.facebook.com`, `www.google.co.uk`).
 */
export function findSite(list: readonly ChannelSite[], sourceOrHost: string): ChannelSite | undefined {
  const value = normaliseHost(sourceOrHost);
  if (value === '') return undefined;
  const byName = list.find((site) => site.source === value || (site.aliases?.includes(value) ?? false));
  if (byName || !value.includes('.')) return byName;
  return list.find((site) => hostMatches(site, value));
}
