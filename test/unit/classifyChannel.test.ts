/**
 * Channel attribution and campaign parameters (spec: analytics §3 "Campaign parameters stored: source,
 * medium, campaign, term, content, channel, referrer"; §4 "Channel attribution classifies traffic into ...").
 * The rules follow GA4's default channel group as the issue asks; see shared/analytics/classifyChannel.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  findSite,
  registrableDomain,
  SEARCH_SITES,
  SHOPPING_SITES,
  SOCIAL_SITES,
  VIDEO_SITES,
} from '../../shared/analytics/channelSites';
import { CHANNEL_RULES, CHANNELS, classifyChannel, type Channel, type ChannelInput } from '../../shared/analytics/classifyChannel';
import { readCampaign, toUtm } from '../../shared/analytics/readCampaign';

const SPEC_CHANNELS = [
  'Direct', 'Cross-network', 'Paid Search', 'Paid Social', 'Paid Video', 'Paid Shopping', 'Display', 'Paid Other',
  'Organic Search', 'Organic Social', 'Organic Video', 'Organic Shopping', 'Email', 'Affiliates', 'SMS',
  'Push Notifications', 'Audio', 'Referral', 'Other',
];

/** One input per channel, each asserted below; together they prove every channel reachable. */
const ONE_PER_CHANNEL: [Channel, ChannelInput][] = [
  ['Direct', {}],
  ['Cross-network', { source: 'google', medium: 'cpc', campaign: 'pmax-cross-network-q3' }],
  ['Paid Shopping', { source: 'amazon', medium: 'cpc' }],
  ['Paid Search', { source: 'google', medium: 'cpc' }],
  ['Paid Social', { source: 'facebook', medium: 'paid_social' }],
  ['Paid Video', { source: 'youtube', medium: 'cpv' }],
  ['Display', { source: 'adnetwork', medium: 'banner' }],
  ['Paid Other', { source: 'partner-site', medium: 'ppc' }],
  ['Organic Shopping', { source: 'etsy', medium: 'referral' }],
  ['Organic Social', { source: 'linkedin', medium: 'post' }],
  ['Organic Video', { source: 'vimeo', medium: 'referral' }],
  ['Organic Search', { source: 'duckduckgo', medium: 'organic' }],
  ['Referral', { source: 'partner-blog.example', medium: 'referral' }],
  ['Email', { source: 'newsletter', medium: 'email' }],
  ['Affiliates', { source: 'partner', medium: 'affiliate' }],
  ['Audio', { source: 'podcast', medium: 'audio' }],
  ['SMS', { source: 'sms', medium: 'text' }],
  ['Push Notifications', { source: 'app', medium: 'web-push' }],
  ['Other', { source: 'poster', medium: 'qr' }],
];

describe('analytics §4 channel attribution: the channel list', () => {
  it('has exactly the 19 channels the spec names, spelt as the spec spells them', () => {
    expect(CHANNELS).toHaveLength(19);
    expect(new Set(CHANNELS)).toEqual(new Set(SPEC_CHANNELS));
  });

  it("tests the rules in GA4's default channel group order, with Other last and ruleless", () => {
    expect(CHANNELS).toEqual([
      'Direct', 'Cross-network', 'Paid Shopping', 'Paid Search', 'Paid Social', 'Paid Video', 'Display', 'Paid Other',
      'Organic Shopping', 'Organic Social', 'Organic Video', 'Organic Search', 'Referral', 'Email', 'Affiliates',
      'Audio', 'SMS', 'Push Notifications', 'Other',
    ]);
    expect(CHANNEL_RULES.map((r) => r.channel)).toEqual(CHANNELS.slice(0, -1));
  });

  it('reaches every one of the 19 channels', () => {
    expect(ONE_PER_CHANNEL.map(([channel]) => channel).sort()).toEqual([...SPEC_CHANNELS].sort());
  });
});

describe('analytics §4 channel attribution: one case per channel', () => {
  for (const [channel, input] of ONE_PER_CHANNEL) {
    it(`classifies ${JSON.stringify(input)} as ${channel}`, () => {
      expect(classifyChannel(input)).toBe(channel);
    });
  }
});

describe('analytics §4 channel attribution: each channel definition', () => {
  it('Direct: no source or (direct), medium none or (not set), and nothing else', () => {
    expect(classifyChannel({})).toBe('Direct');
    expect(classifyChannel({ source: '(direct)', medium: '(none)' })).toBe('Direct');
    expect(classifyChannel({ source: '', medium: '(not set)', campaign: '(not set)' })).toBe('Direct');
    expect(classifyChannel({ clickIds: ['unknown_click_id'] })).toBe('Direct');
    // Tagged traffic without a source is not Direct (GA4 would record source "(not set)").
    expect(classifyChannel({ campaign: 'spring' })).toBe('Other');
    expect(classifyChannel({ medium: 'qr' })).toBe('Other');
  });

  it('Cross-network: the campaign contains cross-network, whatever the medium', () => {
    expect(classifyChannel({ campaign: 'Cross-network' })).toBe('Cross-network');
    expect(classifyChannel({ source: 'google', medium: 'organic', campaign: 'x_cross-network_y' })).toBe('Cross-network');
    expect(classifyChannel({ source: 'google', medium: 'cpc', campaign: 'cross network' })).toBe('Paid Search');
  });

  it('Paid Shopping: a shopping site or shopping campaign with a paid medium', () => {
    expect(classifyChannel({ source: 'ebay.co.uk', medium: 'paid' })).toBe('Paid Shopping');
    expect(classifyChannel({ source: 'google', medium: 'cpc', campaign: 'Summer Shopping' })).toBe('Paid Shopping');
    expect(classifyChannel({ source: 'google', medium: 'cpc', campaign: 'eshop-de' })).toBe('Paid Shopping');
    expect(classifyChannel({ source: 'google', medium: 'cpc', campaign: 'shop_now' })).toBe('Paid Shopping');
    // "shop" preceded by a letter other than e is not a shopping campaign (GA4's regex): a workshop is search.
    expect(classifyChannel({ source: 'google', medium: 'cpc', campaign: 'workshop' })).toBe('Paid Search');
  });

  it('Paid Search, Paid Social, Paid Video: the site list and any paid medium', () => {
    for (const medium of ['cpc', 'ppc', 'retargeting', 'paid', 'paidsearch', 'cpm', 'xcpx']) {
      expect(classifyChannel({ source: 'bing', medium }), medium).toBe('Paid Search');
      expect(classifyChannel({ source: 'ig', medium }), medium).toBe('Paid Social');
      expect(classifyChannel({ source: 'twitch', medium }), medium).toBe('Paid Video');
    }
    for (const medium of ['retarget', 'ppc2', 'unpaid', 'organic']) {
      expect(classifyChannel({ source: 'bing', medium }), medium).not.toBe('Paid Search');
    }
  });

  it('Display: medium display, banner, expandable, interstitial or cpm', () => {
    for (const medium of ['display', 'banner', 'expandable', 'interstitial', 'cpm']) {
      expect(classifyChannel({ source: 'dsp', medium }), medium).toBe('Display');
    }
  });

  it('Paid Other: a paid medium from a source on no list', () => {
    expect(classifyChannel({ source: 'some-network', medium: 'cpa' })).toBe('Paid Other');
    expect(classifyChannel({ medium: 'paid' })).toBe('Paid Other');
  });

  it('Organic Shopping, Social, Video, Search: the site list or the medium', () => {
    expect(classifyChannel({ source: 'walmart' })).toBe('Organic Shopping');
    expect(classifyChannel({ source: 'partner', campaign: 'holiday-shopping' })).toBe('Organic Shopping');
    expect(classifyChannel({ source: 'x' })).toBe('Organic Social');
    for (const medium of ['social', 'social-network', 'social-media', 'sm', 'social network', 'social media']) {
      expect(classifyChannel({ source: 'community', medium }), medium).toBe('Organic Social');
    }
    expect(classifyChannel({ source: 'dailymotion' })).toBe('Organic Video');
    expect(classifyChannel({ source: 'webinar', medium: 'video-embed' })).toBe('Organic Video');
    expect(classifyChannel({ source: 'yandex' })).toBe('Organic Search');
    expect(classifyChannel({ source: 'intranet-search', medium: 'organic' })).toBe('Organic Search');
  });

  it('Referral: medium referral, app or link', () => {
    for (const medium of ['referral', 'app', 'link']) {
      expect(classifyChannel({ source: 'partner.example', medium }), medium).toBe('Referral');
    }
  });

  it('Email: source or medium email, e-mail, e_mail or "e mail"', () => {
    for (const name of ['email', 'e-mail', 'e_mail', 'e mail']) {
      expect(classifyChannel({ source: 'crm', medium: name }), name).toBe('Email');
      expect(classifyChannel({ source: name, medium: 'newsletter' }), name).toBe('Email');
    }
  });

  it('Affiliates, Audio, SMS', () => {
    expect(classifyChannel({ source: 'partner', medium: 'affiliates' })).toBe('Affiliates');
    expect(classifyChannel({ source: 'spotify', medium: 'audio' })).toBe('Audio');
    expect(classifyChannel({ source: 'twilio', medium: 'sms' })).toBe('SMS');
    expect(classifyChannel({ source: 'sms' })).toBe('SMS');
  });

  it('Push Notifications: medium ends with push, contains mobile or notification, or source firebase', () => {
    expect(classifyChannel({ source: 'app', medium: 'push' })).toBe('Push Notifications');
    expect(classifyChannel({ source: 'app', medium: 'mobile-alert' })).toBe('Push Notifications');
    expect(classifyChannel({ source: 'app', medium: 'in-app notification' })).toBe('Push Notifications');
    expect(classifyChannel({ source: 'firebase', medium: 'fcm' })).toBe('Push Notifications');
    expect(classifyChannel({ source: 'app', medium: 'pushy' })).toBe('Other');
  });

  it('Other: tagged traffic no definition matches', () => {
    expect(classifyChannel({ source: 'billboard', medium: 'offline' })).toBe('Other');
    expect(classifyChannel({ source: 'billboard' })).toBe('Other');
  });
});

describe('analytics §4 channel attribution: rule order, first match wins', () => {
  it('Cross-network beats Paid Search and Paid Shopping', () => {
    expect(classifyChannel({ source: 'google', medium: 'cpc', campaign: 'shopping cross-network' })).toBe('Cross-network');
  });

  it('Paid Shopping comes before Paid Search', () => {
    expect(classifyChannel({ source: 'google', medium: 'cpc', campaign: 'shopping' })).toBe('Paid Shopping');
  });

  it('Paid Social comes before Paid Video (TikTok is listed as social)', () => {
    expect(classifyChannel({ source: 'tiktok', medium: 'paid' })).toBe('Paid Social');
  });

  it('paid site rules come before Display, so google / cpm is Paid Search; Display comes before Paid Other', () => {
    expect(classifyChannel({ source: 'google', medium: 'cpm' })).toBe('Paid Search');
    expect(classifyChannel({ source: 'unknown-dsp', medium: 'cpm' })).toBe('Display');
  });

  it('Organic Shopping, Social and Video come before Organic Search', () => {
    expect(classifyChannel({ source: 'amazon', medium: 'organic' })).toBe('Organic Shopping');
    expect(classifyChannel({ source: 'facebook', medium: 'organic' })).toBe('Organic Social');
    expect(classifyChannel({ source: 'youtube', medium: 'organic' })).toBe('Organic Video');
  });

  it('Referral comes before Email, Organic Search before Email', () => {
    expect(classifyChannel({ source: 'email', medium: 'referral' })).toBe('Referral');
    expect(classifyChannel({ source: 'google', medium: 'email' })).toBe('Organic Search');
  });
});

describe('analytics §4 channel attribution: click ids', () => {
  it('a Google Ads click id alone is google / cpc: Paid Search', () => {
    for (const id of ['gclid', 'gbraid', 'wbraid', 'gad_source']) {
      expect(classifyChannel({ clickIds: [id] }), id).toBe('Paid Search');
      expect(readCampaign(`https://shop.example/?${id}=Cj0KCQ`, '')).toMatchObject({ source: 'google', medium: 'cpc' });
    }
  });

  it('msclkid is bing / cpc, ttclid tiktok / paid, li_fat_id linkedin / paid', () => {
    expect(readCampaign('https://a.example/?msclkid=abc', '')).toMatchObject({ source: 'bing', medium: 'cpc', channel: 'Paid Search' });
    expect(readCampaign('https://a.example/?ttclid=abc', '')).toMatchObject({ source: 'tiktok', medium: 'paid', channel: 'Paid Social' });
    expect(readCampaign('https://a.example/?li_fat_id=abc', '')).toMatchObject({ source: 'linkedin', medium: 'paid', channel: 'Paid Social' });
  });

  it('fbclid names facebook but is not paid on its own: Organic Social unless the medium is paid', () => {
    expect(readCampaign('https://a.example/?fbclid=IwAR0', '')).toMatchObject({ source: 'facebook', channel: 'Organic Social' });
    expect(readCampaign('https://a.example/?fbclid=IwAR0', 'https://l.facebook.com/')).toMatchObject({
      source: 'facebook', medium: 'referral', channel: 'Organic Social',
    });
    expect(readCampaign('https://a.example/?fbclid=IwAR0&utm_medium=paid', '')).toMatchObject({
      source: 'facebook', medium: 'paid', channel: 'Paid Social',
    });
  });

  it('UTM parameters win over click ids; a click id fills only what they leave missing', () => {
    expect(readCampaign('https://a.example/?utm_source=news&utm_medium=email&gclid=x', '').channel).toBe('Email');
    expect(readCampaign('https://a.example/?utm_medium=email&gclid=x', '')).toMatchObject({ medium: 'email', channel: 'Email' });
    expect(readCampaign('https://a.example/?utm_source=google&gclid=x', '')).toMatchObject({ medium: 'cpc', channel: 'Paid Search' });
    expect(readCampaign('https://a.example/?utm_campaign=Brand_Shopping&gclid=x', '').channel).toBe('Paid Shopping');
    expect(readCampaign('https://a.example/?utm_campaign=PMax%20cross-network&gad_source=1', '').channel).toBe('Cross-network');
  });

  it('a click id beats the referrer', () => {
    expect(readCampaign('https://a.example/?gclid=x', 'https://www.google.com/')).toMatchObject({
      source: 'google', medium: 'cpc', channel: 'Paid Search',
    });
  });

  it('empty click ids are ignored', () => {
    expect(readCampaign('https://a.example/?gclid=&msclkid', '').channel).toBe('Direct');
  });
});

describe('analytics §4 channel attribution: the referrer as source when untagged', () => {
  it('a search engine referrer is that engine / organic: Organic Search', () => {
    expect(readCampaign('https://a.example/pricing', 'https://www.google.com/')).toEqual({
      source: 'google', medium: 'organic', channel: 'Organic Search', referrer: 'https://www.google.com/',
    });
    expect(readCampaign('https://a.example/', 'https://www.google.co.uk/').source).toBe('google');
    expect(readCampaign('https://a.example/', 'https://duckduckgo.com/').channel).toBe('Organic Search');
    expect(readCampaign('https://a.example/', 'https://search.brave.com/search?q=x').channel).toBe('Organic Search');
    expect(readCampaign('https://a.example/', 'https://www.bing.com/').source).toBe('bing');
  });

  it('a social referrer is its host / referral: Organic Social', () => {
    expect(readCampaign('https://a.example/', 'https://m.facebook.com/')).toMatchObject({
      source: 'm.facebook.com', medium: 'referral', channel: 'Organic Social',
    });
    expect(readCampaign('https://a.example/', 'https://l.instagram.com/?u=x').channel).toBe('Organic Social');
    expect(readCampaign('https://a.example/', 'https://t.co/abc').channel).toBe('Organic Social');
    expect(readCampaign('https://a.example/', 'https://www.linkedin.com/').source).toBe('linkedin.com');
  });

  it('video and shopping referrers', () => {
    expect(readCampaign('https://a.example/', 'https://www.youtube.com/').channel).toBe('Organic Video');
    expect(readCampaign('https://a.example/', 'https://www.amazon.de/dp/1').channel).toBe('Organic Shopping');
    expect(readCampaign('https://a.example/', 'https://shopping.google.com/').channel).toBe('Organic Shopping');
  });

  it('an unknown site is its host without www / referral: Referral', () => {
    expect(readCampaign('https://a.example/', 'https://www.someblog.example:8443/post?id=1')).toMatchObject({
      source: 'someblog.example', medium: 'referral', channel: 'Referral',
    });
  });

  it('non-search Google and Yahoo hosts are referrals, not search', () => {
    expect(readCampaign('https://a.example/', 'https://mail.google.com/')).toMatchObject({ source: 'mail.google.com', channel: 'Referral' });
    expect(readCampaign('https://a.example/', 'https://accounts.google.com/o/oauth2').channel).toBe('Referral');
  });

  it('with any UTM parameter the referrer is not used for attribution, but is still stored', () => {
    const c = readCampaign('https://a.example/?utm_campaign=spring', 'https://www.google.com/');
    expect(c).toEqual({ campaign: 'spring', channel: 'Other', referrer: 'https://www.google.com/' });
    expect(readCampaign('https://a.example/?utm_content=hero', 'https://www.google.com/').source).toBeUndefined();
  });

  it('classifyChannel also takes the referrer host directly', () => {
    expect(classifyChannel({ referrerHost: 'www.google.com' })).toBe('Organic Search');
    expect(classifyChannel({ referrerHost: 'lm.facebook.com' })).toBe('Organic Social');
    expect(classifyChannel({ referrerHost: 'blog.example' })).toBe('Referral');
    expect(classifyChannel({ medium: 'cpc', referrerHost: 'www.bing.com' })).toBe('Paid Search');
  });
});

describe('analytics §4 channel attribution: Direct and same-site referrers', () => {
  it('no referrer and no tags is Direct', () => {
    expect(readCampaign('https://a.example/', '')).toEqual({ channel: 'Direct' });
    expect(readCampaign('https://a.example/?page=2#utm_source=x', '')).toEqual({ channel: 'Direct' });
  });

  it('a referrer on the same site (www. and subdomains ignored) is internal: Direct', () => {
    expect(readCampaign('https://www.shop.example/a', 'https://shop.example/b')).toEqual({
      channel: 'Direct', referrer: 'https://shop.example/b',
    });
    expect(readCampaign('https://app.shop.example/', 'https://WWW.Shop.Example/').channel).toBe('Direct');
    expect(readCampaign('https://shop.co.uk/', 'https://www.shop.co.uk/').channel).toBe('Direct');
    expect(readCampaign('http://localhost:5173/', 'http://localhost:5173/login').channel).toBe('Direct');
  });

  it('different sites that only share a public or hosting suffix are not the same site', () => {
    expect(readCampaign('https://shop.co.uk/', 'https://other.co.uk/').channel).toBe('Referral');
    expect(readCampaign('https://alice.github.io/', 'https://bob.github.io/').channel).toBe('Referral');
  });

  it('UTM tags on an internal link still win over the same-site rule', () => {
    expect(readCampaign('https://shop.example/?utm_source=banner&utm_medium=display', 'https://shop.example/').channel).toBe('Display');
  });

  it('a referrer without a host (about:blank, garbage) is ignored for attribution', () => {
    expect(readCampaign('https://a.example/', 'about:blank').channel).toBe('Direct');
    expect(readCampaign('https://a.example/', 'not a url').channel).toBe('Direct');
  });
});

describe('analytics §4 channel attribution: case-insensitivity', () => {
  it('matches source, medium and campaign whatever their case', () => {
    expect(classifyChannel({ source: 'Google', medium: 'CPC' })).toBe('Paid Search');
    expect(classifyChannel({ source: 'FACEBOOK', medium: 'Paid' })).toBe('Paid Social');
    expect(classifyChannel({ source: 'crm', medium: 'E-Mail' })).toBe('Email');
    expect(classifyChannel({ campaign: 'Q3 CROSS-NETWORK' })).toBe('Cross-network');
    expect(classifyChannel({ referrerHost: 'WWW.YouTube.COM' })).toBe('Organic Video');
    expect(classifyChannel({ clickIds: ['GCLID'] })).toBe('Paid Search');
  });

  it('stores source and medium lower-cased, campaign, term and content as written', () => {
    const c = readCampaign('https://a.example/?utm_source=Google&utm_medium=CPC&utm_campaign=Spring_Sale&utm_term=Running%20Shoes&utm_content=Hero-A', '');
    expect(c).toEqual({
      source: 'google', medium: 'cpc', campaign: 'Spring_Sale', term: 'Running Shoes', content: 'Hero-A', channel: 'Paid Search',
    });
  });

  it('reads UTM keys whatever their case', () => {
    expect(readCampaign('https://a.example/?UTM_Source=newsletter&Utm_Medium=email', '')).toMatchObject({ source: 'newsletter', channel: 'Email' });
  });
});

describe('analytics §3 campaign parameters: readCampaign parsing', () => {
  it('decodes percent-encoding and + as a space', () => {
    const c = readCampaign('https://a.example/?utm_campaign=spring%20sale+%E2%9C%93&utm_term=caf%C3%A9+au+lait', '');
    expect(c.campaign).toBe('spring sale ✓');
    expect(c.term).toBe('café au lait');
  });

  it('keeps malformed percent-encoding as written and decodes the well-formed parts', () => {
    expect(readCampaign('https://a.example/?utm_campaign=100%25+off%', '').campaign).toBe('100% off%');
    expect(readCampaign('https://a.example/?utm_campaign=%E2%9C+%41', '').campaign).toBe('%E2%9C A');
  });

  it('repeated keys: the first non-empty value wins', () => {
    expect(readCampaign('https://a.example/?utm_source=first&utm_source=second', '').source).toBe('first');
    expect(readCampaign('https://a.example/?utm_source=&utm_source=second', '').source).toBe('second');
  });

  it('empty and blank values are ignored, keys without values too', () => {
    expect(readCampaign('https://a.example/?utm_source=&utm_medium=%20&utm_campaign&utm_term=', '')).toEqual({ channel: 'Direct' });
  });

  it('reads only the query: the fragment and the path are not parameters', () => {
    expect(readCampaign('https://a.example/utm_source=x?a=1#utm_medium=cpc', '')).toEqual({ channel: 'Direct' });
    expect(readCampaign('https://a.example/?a=1&&utm_source=news&utm_medium=email#top', '')).toMatchObject({ source: 'news', channel: 'Email' });
  });

  it('handles a value holding = and an encoded & ', () => {
    expect(readCampaign('https://a.example/?utm_content=a=b%26c', '').content).toBe('a=b&c');
  });
});

describe('analytics §3 campaign parameters: the envelope utm object', () => {
  it('is {"channel":"Direct"} for direct traffic', () => {
    expect(toUtm(readCampaign('https://a.example/', ''))).toEqual({ channel: 'Direct' });
    expect(JSON.stringify(toUtm({ channel: 'Direct' }))).toBe('{"channel":"Direct"}');
  });

  it('carries channel first, then every campaign field present, all strings', () => {
    const utm = toUtm(readCampaign('https://a.example/?utm_source=news&utm_medium=email&utm_campaign=May&utm_term=t&utm_content=c', 'https://mail.example/'));
    expect(utm).toEqual({
      channel: 'Email', source: 'news', medium: 'email', campaign: 'May', term: 't', content: 'c', referrer: 'https://mail.example/',
    });
    expect(Object.keys(utm)[0]).toBe('channel');
    expect(Object.values(utm).every((v) => typeof v === 'string')).toBe(true);
  });

  it('leaves out empty fields', () => {
    expect(toUtm({ channel: 'Referral', source: 'blog.example', medium: 'referral', campaign: '' })).toEqual({
      channel: 'Referral', source: 'blog.example', medium: 'referral',
    });
  });
});

describe('analytics §4 channel attribution: site lists and the host matcher', () => {
  it('matches source names, aliases and hosts with any subdomain', () => {
    expect(findSite(SOCIAL_SITES, 'm.facebook.com')?.source).toBe('facebook');
    expect(findSite(SOCIAL_SITES, 'l.instagram.com')?.source).toBe('instagram');
    expect(findSite(SOCIAL_SITES, 'fb')?.source).toBe('facebook');
    expect(findSite(SEARCH_SITES, 'www.google.co.uk')?.source).toBe('google');
    expect(findSite(SEARCH_SITES, 'google.com.au')?.source).toBe('google');
    expect(findSite(SEARCH_SITES, 'Google.')?.source).toBe('google');
    expect(findSite(VIDEO_SITES, 'youtu.be')?.source).toBe('youtube');
    expect(findSite(SHOPPING_SITES, 'www.ebay.de')?.source).toBe('ebay');
  });

  it('does not match look-alikes', () => {
    expect(findSite(SEARCH_SITES, 'notgoogle.com')).toBeUndefined();
    expect(findSite(SEARCH_SITES, 'google.example.com')).toBeUndefined();
    expect(findSite(SOCIAL_SITES, 'facebook.com.evil.example')).toBeUndefined();
    expect(findSite(SEARCH_SITES, 'google.github.io')).toBeUndefined();
    expect(findSite(SEARCH_SITES, '')).toBeUndefined();
  });

  it('each list holds a few dozen entries with unique source names', () => {
    for (const list of [SEARCH_SITES, SOCIAL_SITES, VIDEO_SITES, SHOPPING_SITES]) {
      expect(list.length).toBeGreaterThanOrEqual(15);
      expect(new Set(list.map((s) => s.source)).size).toBe(list.length);
    }
  });

  it('registrableDomain approximates the owner domain', () => {
    expect(registrableDomain('www.google.co.uk')).toBe('google.co.uk');
    expect(registrableDomain('a.b.example.com')).toBe('example.com');
    expect(registrableDomain('t.co')).toBe('t.co');
    expect(registrableDomain('alice.github.io')).toBe('alice.github.io');
    expect(registrableDomain('127.0.0.1')).toBe('127.0.0.1');
    expect(registrableDomain('LOCALHOST.')).toBe('localhost');
  });
});
