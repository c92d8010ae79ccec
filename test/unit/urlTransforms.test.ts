/**
 * URL transforms and the custom URL source (spec: analytics §3 "URL transform: attr, action, data", §5).
 * Node's WHATWG `URL` serves as the independent reference for how a URL splits into its parts.
 */
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_ACTIONS,
  applyUrlTransforms,
  checkUrlTransform,
  formatHref,
  hasFunctionData,
  parseHref,
  type UrlAction,
  type UrlAttr,
  type UrlTransform,
} from '../../shared/privacy/applyUrlTransforms';
import { MESSAGES } from '../../shared/messages';
import { resolveCustomUrl } from '../../shared/privacy/resolveCustomUrl';

const ATTRS: UrlAttr[] = ['search', 'hash', 'pathname', 'hostname', 'href', 'protocol'];
const ACTIONS: UrlAction[] = ['AllowOnlyKeys', 'ExcludeKeys', 'AddTo', 'Replace', 'Clear', 'ForceSecure'];

/** Applies one transform, asserting first that it is valid so a typo in a row cannot pass as a skip. */
function apply1(href: string, t: UrlTransform): string {
  expect(checkUrlTransform(t)).toBeNull();
  return applyUrlTransforms(href, [t]);
}

describe('analytics §5 URL transforms: the allowed-actions table', () => {
  it('holds exactly the pairs the spec lists', () => {
    expect(ALLOWED_ACTIONS).toEqual({
      search: ['AllowOnlyKeys', 'ExcludeKeys', 'AddTo', 'Replace', 'Clear'],
      hash: ['Replace', 'Clear'],
      pathname: ['Replace', 'Clear', 'AddTo'],
      hostname: ['Replace'],
      href: ['Replace', 'ForceSecure'],
      protocol: ['ForceSecure'],
    });
  });

  it('refuses every pair outside the table with "Invalid transform action"', () => {
    for (const attr of ATTRS) {
      for (const action of ACTIONS) {
        if (ALLOWED_ACTIONS[attr].includes(action)) continue;
        // Data that would satisfy any action, so only the pair itself can be at fault.
        expect(checkUrlTransform({ attr, action, data: () => 'x' }), `${attr}.${action}`)
          .toBe(MESSAGES.invalidTransformAction);
      }
    }
  });

  const U = 'https://app.test/p?a=1&b=2&c=3&a=4#h';
  const rows: Array<[name: string, href: string, t: UrlTransform, expected: string]> = [
    ['search AllowOnlyKeys string[]: every occurrence kept in order', U,
      { attr: 'search', action: 'AllowOnlyKeys', data: ['a', 'c'] }, 'https://app.test/p?a=1&c=3&a=4#h'],
    ['search AllowOnlyKeys function', 'https://app.test/?utm_source=g&id=7&utm_medium=cpc',
      { attr: 'search', action: 'AllowOnlyKeys', data: (keys: string[]) => keys.filter((k) => k.startsWith('utm_')) },
      'https://app.test/?utm_source=g&utm_medium=cpc'],
    ['search ExcludeKeys string[]', U,
      { attr: 'search', action: 'ExcludeKeys', data: ['a'] }, 'https://app.test/p?b=2&c=3#h'],
    ['search ExcludeKeys function', 'https://app.test/?Secret=1&x=2&apiSECRET=3',
      { attr: 'search', action: 'ExcludeKeys', data: (keys: string[]) => keys.filter((k) => /secret/i.test(k)) },
      'https://app.test/?x=2'],
    ['search AddTo object: overwrite in place, drop duplicates, append new, encode', 'https://app.test/?q=old&x=1&q=dup',
      { attr: 'search', action: 'AddTo', data: { q: 'a b&c', lang: 'en', 'k=y': 2, on: true } },
      'https://app.test/?q=a%20b%26c&x=1&lang=en&k%3Dy=2&on=true'],
    ['search AddTo function', 'https://app.test/list?page=1#top',
      { attr: 'search', action: 'AddTo', data: (cur: Record<string, string>) => ({ page: String(Number(cur.page) + 1) }) },
      'https://app.test/list?page=2#top'],
    ['search Replace string without ?', U,
      { attr: 'search', action: 'Replace', data: 'view=all' }, 'https://app.test/p?view=all#h'],
    ['search Replace string with ?', U,
      { attr: 'search', action: 'Replace', data: '?view=all' }, 'https://app.test/p?view=all#h'],
    ['search Replace function gets the query without ?', U,
      { attr: 'search', action: 'Replace', data: (q: string) => q.split('&').reverse().join('&') },
      'https://app.test/p?a=4&c=3&b=2&a=1#h'],
    ['search Clear', U, { attr: 'search', action: 'Clear' }, 'https://app.test/p#h'],
    ['hash Replace string', U, { attr: 'hash', action: 'Replace', data: 'top' }, 'https://app.test/p?a=1&b=2&c=3&a=4#top'],
    ['hash Replace string with #', U, { attr: 'hash', action: 'Replace', data: '#top' }, 'https://app.test/p?a=1&b=2&c=3&a=4#top'],
    ['hash Replace function gets the fragment without #', 'https://app.test/#/users/42',
      { attr: 'hash', action: 'Replace', data: (h: string) => h.replace(/\d+/g, ':id') }, 'https://app.test/#/users/:id'],
    ['hash Clear', U, { attr: 'hash', action: 'Clear' }, 'https://app.test/p?a=1&b=2&c=3&a=4'],
    ['pathname Replace string, made absolute', U,
      { attr: 'pathname', action: 'Replace', data: 'users/:id' }, 'https://app.test/users/:id?a=1&b=2&c=3&a=4#h'],
    ['pathname Replace function', 'https://app.test/users/42/orders/7?x=1',
      { attr: 'pathname', action: 'Replace', data: (p: string) => p.replace(/\/\d+/g, '/:id') },
      'https://app.test/users/:id/orders/:id?x=1'],
    ['pathname Clear', U, { attr: 'pathname', action: 'Clear' }, 'https://app.test/?a=1&b=2&c=3&a=4#h'],
    ['pathname AddTo string: exactly one / between', 'https://app.test/a//?x=1',
      { attr: 'pathname', action: 'AddTo', data: '/b/c' }, 'https://app.test/a/b/c?x=1'],
    ['pathname AddTo object prefix and suffix', 'https://app.test/docs/intro#s',
      { attr: 'pathname', action: 'AddTo', data: { prefix: '/en/', suffix: 'print' } }, 'https://app.test/en/docs/intro/print#s'],
    ['pathname AddTo object prefix on the root path', 'https://app.test/',
      { attr: 'pathname', action: 'AddTo', data: { prefix: 'en' } }, 'https://app.test/en/'],
    ['pathname AddTo function: its result is appended', 'https://app.test/report',
      { attr: 'pathname', action: 'AddTo', data: (p: string) => `v${p.length}` }, 'https://app.test/report/v7'],
    ['hostname Replace string: userinfo and port kept', 'https://u:p@acme.app.test:8443/x',
      { attr: 'hostname', action: 'Replace', data: 'tenant.app.test' }, 'https://u:p@tenant.app.test:8443/x'],
    ['hostname Replace function', 'https://acme.app.test/x',
      { attr: 'hostname', action: 'Replace', data: (h: string) => h.replace(/^[^.]+/, 'tenant') }, 'https://tenant.app.test/x'],
    ['href Replace string', U, { attr: 'href', action: 'Replace', data: 'https://other.test/' }, 'https://other.test/'],
    ['href Replace function', U,
      { attr: 'href', action: 'Replace', data: (h: string) => h.split('?')[0] }, 'https://app.test/p'],
    ['href ForceSecure', 'http://app.test:80/p?a=1#h', { attr: 'href', action: 'ForceSecure' }, 'https://app.test/p?a=1#h'],
    ['protocol ForceSecure', 'http://app.test/p', { attr: 'protocol', action: 'ForceSecure' }, 'https://app.test/p'],
  ];

  it.each(rows)('%s', (_name, href, t, expected) => {
    expect(apply1(href, t)).toBe(expected);
  });

  it('hands key functions the distinct decoded keys in order of first appearance', () => {
    let seen: string[] = [];
    apply1('https://app.test/?b=1&a%20x=2&b=3&c', {
      attr: 'search', action: 'ExcludeKeys', data: (keys: string[]) => ((seen = keys), []),
    });
    expect(seen).toEqual(['b', 'a x', 'c']);
  });

  it('hands search AddTo functions the decoded parameters, first occurrence winning', () => {
    let seen: Record<string, string> = {};
    apply1('https://app.test/?q=a+b&q=2&e=%C3%A9&flag', {
      attr: 'search', action: 'AddTo', data: (cur: Record<string, string>) => ((seen = cur), {}),
    });
    expect(seen).toEqual({ q: 'a b', e: 'é', flag: '' });
  });
});

describe('analytics §5 URL transforms: the four error messages', () => {
  it('"missing required attr property" for a non-object or an object without attr', () => {
    for (const t of [null, undefined, 'search', 42, [], () => 0, { action: 'Clear' }, { attr: undefined, action: 'Clear' }]) {
      expect(checkUrlTransform(t)).toBe(MESSAGES.missingAttr);
    }
  });

  it('"missing required action property" before the attr is looked at', () => {
    expect(checkUrlTransform({ attr: 'search' })).toBe(MESSAGES.missingAction);
    expect(checkUrlTransform({ attr: 'port' })).toBe(MESSAGES.missingAction);
  });

  it('"Invalid URL attribute type" for an attr outside the six', () => {
    for (const attr of ['port', 'Search', 'toString', '__proto__', '', 5, null]) {
      expect(checkUrlTransform({ attr, action: 'Clear' })).toBe(MESSAGES.invalidUrlAttr);
    }
  });

  it('"Invalid transform action" for an unknown action or one not allowed for the attr', () => {
    expect(checkUrlTransform({ attr: 'hash', action: 'AddTo', data: 'x' })).toBe(MESSAGES.invalidTransformAction);
    expect(checkUrlTransform({ attr: 'search', action: 'clear' })).toBe(MESSAGES.invalidTransformAction);
    expect(checkUrlTransform({ attr: 'search', action: 7 })).toBe(MESSAGES.invalidTransformAction);
  });

  it('spells the messages as the spec does', () => {
    expect([MESSAGES.invalidUrlAttr, MESSAGES.invalidTransformAction, MESSAGES.missingAttr, MESSAGES.missingAction])
      .toEqual(['Invalid URL attribute type', 'Invalid transform action', 'missing required attr property',
        'missing required action property']);
  });
});

describe('analytics §5 URL transforms: data kinds', () => {
  const bad: Array<[string, unknown]> = [
    ['search Replace without data', { attr: 'search', action: 'Replace' }],
    ['search AddTo without data', { attr: 'search', action: 'AddTo' }],
    ['search AllowOnlyKeys without data', { attr: 'search', action: 'AllowOnlyKeys' }],
    ['search ExcludeKeys without data', { attr: 'search', action: 'ExcludeKeys' }],
    ['pathname AddTo without data', { attr: 'pathname', action: 'AddTo' }],
    ['key action with a string', { attr: 'search', action: 'AllowOnlyKeys', data: 'a' }],
    ['key action with a non-string key', { attr: 'search', action: 'ExcludeKeys', data: ['a', 1] }],
    ['search AddTo with a string', { attr: 'search', action: 'AddTo', data: 'a=1' }],
    ['search AddTo with an array', { attr: 'search', action: 'AddTo', data: [['a', '1']] }],
    ['search AddTo with a nested value', { attr: 'search', action: 'AddTo', data: { a: { b: 1 } } }],
    ['search AddTo with a class instance', { attr: 'search', action: 'AddTo', data: new Date(0) }],
    ['pathname AddTo with a number', { attr: 'pathname', action: 'AddTo', data: 42 }],
    ['pathname AddTo with an unknown key', { attr: 'pathname', action: 'AddTo', data: { pre: 'x' } }],
    ['pathname AddTo with an empty object', { attr: 'pathname', action: 'AddTo', data: {} }],
    ['pathname AddTo with a non-string prefix', { attr: 'pathname', action: 'AddTo', data: { prefix: 1 } }],
    ['hash Replace with a number', { attr: 'hash', action: 'Replace', data: 1 }],
    ['hostname Replace with a path', { attr: 'hostname', action: 'Replace', data: 'a.test/x' }],
    ['hostname Replace with a port', { attr: 'hostname', action: 'Replace', data: 'a.test:80' }],
    ['hostname Replace empty', { attr: 'hostname', action: 'Replace', data: '' }],
    ['href Replace empty', { attr: 'href', action: 'Replace', data: '' }],
  ];

  it.each(bad)('%s is an invalid transform action', (_name, t) => {
    expect(checkUrlTransform(t)).toBe(MESSAGES.invalidTransformAction);
  });

  it('ignores data on Clear and ForceSecure, and accepts an IPv6 hostname', () => {
    expect(checkUrlTransform({ attr: 'search', action: 'Clear', data: 123 })).toBeNull();
    expect(checkUrlTransform({ attr: 'protocol', action: 'ForceSecure', data: 'x' })).toBeNull();
    expect(checkUrlTransform({ attr: 'hostname', action: 'Replace', data: '[2001:db8::2]' })).toBeNull();
  });

  it('skips invalid transforms and applies the valid ones around them', () => {
    const list = [
      { attr: 'search', action: 'Clear' },
      { attr: 'hash', action: 'AddTo', data: 'x' },
      { action: 'Clear' },
      { attr: 'pathname', action: 'Replace' },
      { attr: 'hash', action: 'Clear' },
    ] as unknown as UrlTransform[];
    expect(applyUrlTransforms('https://app.test/p?a=1#h', list)).toBe('https://app.test/p');
  });

  it('skips a transform whose function throws or returns the wrong kind, without throwing', () => {
    const href = 'https://app.test/p?a=1#h';
    const broken: UrlTransform[] = [
      { attr: 'search', action: 'AllowOnlyKeys', data: () => { throw new Error('host bug'); } },
      { attr: 'search', action: 'ExcludeKeys', data: () => 'a' },
      { attr: 'search', action: 'AddTo', data: () => null },
      { attr: 'search', action: 'AddTo', data: () => ({ a: [1] }) },
      { attr: 'hash', action: 'Replace', data: () => 5 },
      { attr: 'pathname', action: 'AddTo', data: () => ({ suffix: 'x' }) },
      { attr: 'hostname', action: 'Replace', data: () => 'bad/host' },
      { attr: 'href', action: 'Replace', data: () => '' },
    ];
    for (const t of broken) expect(apply1(href, t), `${t.attr}.${t.action}`).toBe(href);
    expect(applyUrlTransforms(href, [...broken, { attr: 'hash', action: 'Clear' }])).toBe('https://app.test/p?a=1');
  });

  it('hasFunctionData tells main-thread lists from worker-safe ones', () => {
    const plain: UrlTransform[] = [{ attr: 'search', action: 'ExcludeKeys', data: ['t'] }, { attr: 'hash', action: 'Clear' }];
    expect(hasFunctionData(plain)).toBe(false);
    expect(structuredClone(plain)).toEqual(plain);
    expect(hasFunctionData([...plain, { attr: 'pathname', action: 'AddTo', data: () => 'x' }])).toBe(true);
    expect(hasFunctionData([])).toBe(false);
  });
});

describe('analytics §5 URL transforms: ForceSecure', () => {
  const cases: Array<[string, string]> = [
    ['http://app.test/', 'https://app.test/'],
    ['http://app.test:80/p', 'https://app.test/p'],
    ['http://app.test:8080/p', 'https://app.test:8080/p'],
    ['http://app.test:443/p', 'https://app.test:443/p'],
    ['HTTP://App.Test/P', 'https://App.Test/P'],
    ['ws://app.test:80/socket', 'wss://app.test/socket'],
    ['http://[::1]:80/p', 'https://[::1]/p'],
    ['https://app.test:80/p', 'https://app.test:80/p'],
    ['ftp://app.test/f', 'ftp://app.test/f'],
    ['file:///tmp/x', 'file:///tmp/x'],
    ['/relative/path', '/relative/path'],
  ];
  it.each(cases)('%s -> %s (as protocol and as href)', (href, expected) => {
    expect(apply1(href, { attr: 'protocol', action: 'ForceSecure' })).toBe(expected);
    expect(apply1(href, { attr: 'href', action: 'ForceSecure' })).toBe(expected);
  });
});

describe('analytics §5 URL transforms: order of application', () => {
  it('applies in list order, each on the previous result', () => {
    const replace: UrlTransform = { attr: 'href', action: 'Replace', data: 'http://b.test/x?z=1' };
    const add: UrlTransform = { attr: 'search', action: 'AddTo', data: { k: 'v' } };
    const secure: UrlTransform = { attr: 'protocol', action: 'ForceSecure' };
    expect(applyUrlTransforms('https://a.test/', [add, replace, secure])).toBe('https://b.test/x?z=1');
    expect(applyUrlTransforms('https://a.test/', [replace, add, secure])).toBe('https://b.test/x?z=1&k=v');
    expect(applyUrlTransforms('https://a.test/', [replace, add])).toBe('http://b.test/x?z=1&k=v');
  });

  it('lets an exclusion remove what an earlier AddTo added, and not a later one', () => {
    const add: UrlTransform = { attr: 'search', action: 'AddTo', data: { t: '1' } };
    const exclude: UrlTransform = { attr: 'search', action: 'ExcludeKeys', data: ['t'] };
    expect(applyUrlTransforms('https://a.test/?x=1', [add, exclude])).toBe('https://a.test/?x=1');
    expect(applyUrlTransforms('https://a.test/?x=1', [exclude, add])).toBe('https://a.test/?x=1&t=1');
  });

  it('returns the href unchanged for an empty list', () => {
    expect(applyUrlTransforms('HTTP://Ex.Test:80/A%2fB?x=1#F', [])).toBe('HTTP://Ex.Test:80/A%2fB?x=1#F');
  });
});

describe('analytics §5 URL transforms: URL edge cases', () => {
  const urls = [
    'https://app.test',
    'https://app.test?a=1',
    'https://app.test#h',
    'https://app.test/',
    'https://app.test/?',
    'https://app.test/p?#',
    'https://user:p%40ss@w@app.test:8443/a/b?x=1&y#f',
    'http://[2001:db8::1]:8080/p?q=1#h',
    'http://[::1]/',
    'HTTP://Ex.Test:80/A%2fB?x=1#F',
    'https://app.test/p#a?b=1#c',
    'https://app.test:/p',
    'mailto:someone@app.test?subject=hi',
    'file:///C:/dir/file.txt',
    '/relative?x=1#y',
    '',
  ];

  it.each(urls)('parseHref/formatHref round-trip %j byte for byte', (href) => {
    expect(formatHref(parseHref(href))).toBe(href);
  });

  it('splits absolute URLs the way the WHATWG URL parser does', () => {
    for (const href of urls.slice(0, 11)) {
      const ours = parseHref(href);
      const ref = new URL(href);
      expect(ours.protocol.toLowerCase(), href).toBe(ref.protocol);
      expect(ours.hostname.toLowerCase(), href).toBe(ref.hostname);
      // WHATWG drops a default port, and an empty search or hash, in its getters.
      const defaultPort = ({ 'http:': '80', 'https:': '443' } as Record<string, string>)[ref.protocol];
      expect(ours.port === defaultPort ? '' : ours.port ?? '', href).toBe(ref.port);
      expect([ref.search, '?'], href).toContain(ours.search);
      expect([ref.hash, '#'], href).toContain(ours.hash);
    }
  });

  it('reads userinfo up to the last @, and an IPv6 host with its port', () => {
    expect(parseHref('https://u:p@w@h.test:1/x')).toMatchObject({ userinfo: 'u:p@w@', hostname: 'h.test', port: '1' });
    expect(parseHref('http://[2001:db8::1]:8080/p')).toMatchObject({ hostname: '[2001:db8::1]', port: '8080', pathname: '/p' });
    expect(parseHref('http://[::1]/')).toMatchObject({ hostname: '[::1]', port: null });
  });

  it('handles a URL with no path', () => {
    expect(apply1('https://app.test?a=1', { attr: 'pathname', action: 'AddTo', data: 'seg' })).toBe('https://app.test/seg?a=1');
    expect(apply1('https://app.test', { attr: 'search', action: 'AddTo', data: { a: '1' } })).toBe('https://app.test?a=1');
    expect(apply1('https://app.test#h', { attr: 'pathname', action: 'Clear' })).toBe('https://app.test/#h');
    expect(apply1('https://app.test', { attr: 'search', action: 'Clear' })).toBe('https://app.test');
  });

  it('handles an empty query and a ? without parameters', () => {
    const bare = 'https://app.test/p?#h';
    expect(apply1(bare, { attr: 'search', action: 'AllowOnlyKeys', data: ['a'] })).toBe(bare);
    expect(apply1(bare, { attr: 'search', action: 'ExcludeKeys', data: ['a'] })).toBe(bare);
    expect(apply1(bare, { attr: 'search', action: 'AddTo', data: { a: '1' } })).toBe('https://app.test/p?a=1#h');
    expect(apply1(bare, { attr: 'search', action: 'Clear' })).toBe('https://app.test/p#h');
    expect(apply1('https://app.test/p?a=1', { attr: 'search', action: 'Replace', data: '' })).toBe('https://app.test/p');
    expect(apply1('https://app.test/p?a=1', { attr: 'search', action: 'Replace', data: '?' })).toBe('https://app.test/p');
    expect(apply1('https://app.test/p?a=1', { attr: 'search', action: 'AllowOnlyKeys', data: [] })).toBe('https://app.test/p');
  });

  it('leaves the query byte-identical when a key action removes nothing', () => {
    const href = 'https://app.test/?a=%41&&b+c=1&a=2&';
    expect(apply1(href, { attr: 'search', action: 'ExcludeKeys', data: ['zzz'] })).toBe(href);
    expect(apply1(href, { attr: 'search', action: 'AllowOnlyKeys', data: ['a', 'b c'] })).toBe(href);
    expect(apply1(href, { attr: 'search', action: 'ExcludeKeys', data: ['b c'] })).toBe('https://app.test/?a=%41&a=2');
  });

  it('treats keys without = as keys', () => {
    const href = 'https://app.test/?debug&a=1&debug=';
    expect(apply1(href, { attr: 'search', action: 'ExcludeKeys', data: ['debug'] })).toBe('https://app.test/?a=1');
    expect(apply1(href, { attr: 'search', action: 'AllowOnlyKeys', data: ['debug'] })).toBe('https://app.test/?debug&debug=');
    expect(apply1(href, { attr: 'search', action: 'AddTo', data: { debug: 'on' } })).toBe('https://app.test/?debug=on&a=1');
  });

  it('matches percent-encoded and +-encoded keys by their decoded form, keeping their encoding', () => {
    const href = 'https://app.test/?%75tm=1&a%20b=2&c+d=3&%E2%9C%93=4&e=5';
    expect(apply1(href, { attr: 'search', action: 'AllowOnlyKeys', data: ['utm', 'a b', 'c d', '✓'] }))
      .toBe('https://app.test/?%75tm=1&a%20b=2&c+d=3&%E2%9C%93=4');
    expect(apply1(href, { attr: 'search', action: 'ExcludeKeys', data: ['%75tm'] })).toBe(href);
  });

  it('keeps a malformed escape as its literal text instead of failing', () => {
    const href = 'https://app.test/?%E0%A4%A=1&b=2';
    expect(apply1(href, { attr: 'search', action: 'ExcludeKeys', data: ['%E0%A4%A'] })).toBe('https://app.test/?b=2');
  });

  it('reads # inside the hash as part of the hash, and ? after # as hash too', () => {
    const href = 'https://app.test/p?a=1#sec#2?x=y';
    expect(parseHref(href)).toMatchObject({ search: '?a=1', hash: '#sec#2?x=y' });
    expect(apply1(href, { attr: 'search', action: 'Clear' })).toBe('https://app.test/p#sec#2?x=y');
    expect(apply1('https://app.test/p#a?b=1', { attr: 'search', action: 'AddTo', data: { c: '1' } }))
      .toBe('https://app.test/p?c=1#a?b=1');
    expect(apply1(href, { attr: 'hash', action: 'Replace', data: '#x#y' })).toBe('https://app.test/p?a=1#x#y');
  });

  it('replaces an IPv6 host and keeps the port', () => {
    const href = 'http://[2001:db8::1]:8080/p';
    expect(apply1(href, { attr: 'hostname', action: 'Replace', data: 'app.test' })).toBe('http://app.test:8080/p');
    expect(apply1('https://app.test:8443/', { attr: 'hostname', action: 'Replace', data: '[::2]' })).toBe('https://[::2]:8443/');
  });

  it('leaves a URL without an authority alone on hostname Replace', () => {
    const href = 'mailto:someone@app.test';
    expect(apply1(href, { attr: 'hostname', action: 'Replace', data: 'x.test' })).toBe(href);
  });

  it('keeps ? and # in written data from changing where the query and hash start', () => {
    expect(apply1('https://app.test/p', { attr: 'search', action: 'Replace', data: 'a=1#2' })).toBe('https://app.test/p?a=1%232');
    expect(apply1('https://app.test/p', { attr: 'pathname', action: 'Replace', data: '/x?y#z' })).toBe('https://app.test/x%3Fy%23z');
    expect(apply1('https://app.test/p', { attr: 'pathname', action: 'AddTo', data: 'q?' })).toBe('https://app.test/p/q%3F');
  });

  it('keeps untouched parts byte-identical (case, escapes, default port)', () => {
    const href = 'HTTP://Ex.Test:80/A%2fB?x=%7E#F';
    expect(apply1(href, { attr: 'hash', action: 'Clear' })).toBe('HTTP://Ex.Test:80/A%2fB?x=%7E');
    expect(apply1(href, { attr: 'pathname', action: 'Clear' })).toBe('HTTP://Ex.Test:80/?x=%7E#F');
  });
});

describe('analytics §5 custom URL source', () => {
  it('accepts a string, a URL, a URL-like object, or a function returning one', () => {
    expect(resolveCustomUrl('https://app.test/a')).toEqual({ ok: true, href: 'https://app.test/a' });
    expect(resolveCustomUrl(new URL('https://app.test/b?x=1'))).toEqual({ ok: true, href: 'https://app.test/b?x=1' });
    expect(resolveCustomUrl({ href: 'https://app.test/c' })).toEqual({ ok: true, href: 'https://app.test/c' });
    expect(resolveCustomUrl(() => 'https://app.test/d')).toEqual({ ok: true, href: 'https://app.test/d' });
    expect(resolveCustomUrl(() => new URL('https://app.test/e'))).toEqual({ ok: true, href: 'https://app.test/e' });
  });

  it("gives 'Invalid type from custom URL source' for anything else", () => {
    const invalid = { ok: false, error: 'Invalid type from custom URL source' };
    expect(MESSAGES.invalidCustomUrl).toBe(invalid.error);
    for (const source of [undefined, null, 42, true, {}, { href: 5 }, [], '', () => 42, () => undefined,
      () => () => 'https://app.test/', () => { throw new Error('host bug'); }]) {
      expect(resolveCustomUrl(source)).toEqual(invalid);
    }
  });
});
