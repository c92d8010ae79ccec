/**
 * Guide step content checks (spec: guides §5 validation rules, §8 error catalogue; wire-protocol.md
 * "guide.json response"). Hashes are checked against Node's own `node:crypto` as the independent reference.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BUILDING_BLOCK_PROPS,
  checkBuildingBlocks,
  MAX_CONTENT_DEPTH,
  MAX_CONTENT_NODES,
} from '../../shared/guides/checkBuildingBlocks';
import type { DomNode } from '../../shared/guides/guides';
import { MESSAGES } from '../../shared/messages';
import { checkStepContent } from '../../shared/guides/validateGuidePayload';
import { fillVariables } from '../../shared/guides/fillVariables';
import { isAllowedAssetUrl } from '../../worker/isAllowedAssetUrl';
import { defaultDigest, verifyContentHash } from '../../worker/verifyContentHash';

/** The domJson of the wire example, verbatim (wire-protocol.md "guide.json response"). */
const WIRE_EXAMPLE = JSON.parse(`{"type":"div","props":{"id":"guide-base"},"children":[
     {"type":"div","props":{"id":"text-1"},"content":"Welcome"},
     {"type":"button","props":{"id":"close-x"},"content":"x",
      "actions":[{"action":"dismissGuide","eventType":"click","parameters":[],"source":"close-x","destination":"Global"}]}]}`);

const check = (content: unknown) => checkBuildingBlocks(content, 'g1', 's1');
/** Content whose only child carries `props` on a node of `type`. */
const withChild = (type: string, props: Record<string, unknown>) => ({ type: 'div', props: {}, children: [{ type, props }] });
const illegal = (key: string) => ({ ok: false, message: MESSAGES.illegalBuildingBlockKey(key, 'g1', 's1') });
const notJson = { ok: false, message: MESSAGES.contentNotJson };

/** A chain of `levels` nested divs, the root level 1. */
function chain(levels: number): DomNode {
  const root: DomNode = { type: 'div', props: {}, children: [] };
  let node = root;
  for (let level = 2; level <= levels; level++) {
    const child: DomNode = { type: 'div', children: [] };
    node.children!.push(child);
    node = child;
  }
  return root;
}

describe('guides §5 content shape: type, children and props', () => {
  it("refuses a root without type, children or props with 'Response from the guide was not in proper JSON format'", () => {
    expect(MESSAGES.contentNotJson).toBe('Response from the guide was not in proper JSON format');
    const roots: unknown[] = [
      { children: [], props: {} },
      { type: 1, children: [], props: {} },
      { type: 'div', props: {} },
      { type: 'div', children: {}, props: {} },
      { type: 'div', children: [] },
      { type: 'div', children: [], props: [] },
      { type: 'div', children: [], props: null },
      null, undefined, 'div', 42, [],
    ];
    for (const root of roots) expect(check(root), JSON.stringify(root)).toEqual(notJson);
  });

  it('passes the wire example, whose child nodes have no children, and returns an equal copy', () => {
    const result = check(WIRE_EXAMPLE);
    expect(result).toEqual({ ok: true, content: WIRE_EXAMPLE });
    // Compatible with the shape check the engine already runs.
    expect(checkStepContent(WIRE_EXAMPLE)).toBeNull();
  });

  it('agrees with checkStepContent on every root it refuses', () => {
    const roots: unknown[] = [{ type: 'div', children: [] }, { type: 'div', props: {} }, { children: [], props: {} }];
    for (const root of roots) {
      expect(checkStepContent(root)).toBe(MESSAGES.contentNotJson);
      expect(check(root)).toEqual(notJson);
    }
  });

  it('requires every nested node to be an object with a string type; children an array, props an object, content a string', () => {
    const children: unknown[] = [
      null, 'text', 7, [], { props: {} }, { type: 3 },
      { type: 'p', children: 'x' }, { type: 'p', children: null },
      { type: 'p', props: [] }, { type: 'p', props: 'id=x' },
      { type: 'p', content: 5 }, { type: 'p', content: { html: '<b>' } },
    ];
    for (const child of children) {
      expect(check({ type: 'div', props: {}, children: [child] }), JSON.stringify(child)).toEqual(notJson);
    }
    // Deeper down too.
    expect(check({ type: 'div', props: {}, children: [{ type: 'p', children: [{ type: 'span', children: [null] }] }] })).toEqual(notJson);
  });

  it('passes actions arrays of objects with a string action, and refuses anything else', () => {
    const ok = withChild('button', { id: 'b' }) as { children: Array<Record<string, unknown>> };
    ok.children[0]!.actions = [{ action: 'advanceGuide' }, { action: 'goToStep', parameters: ['s2'] }];
    const result = check(ok);
    expect(result.ok && result.content.children![0]!.actions).toEqual([{ action: 'advanceGuide' }, { action: 'goToStep', parameters: ['s2'] }]);
    for (const actions of [{ action: 'x' }, 'dismissGuide', null, [null], [{}], [{ action: 1 }], ['advanceGuide']]) {
      const bad = { type: 'div', props: {}, children: [{ type: 'button', actions }] };
      expect(check(bad), JSON.stringify(actions)).toEqual(notJson);
    }
  });

  it('drops node fields the renderer does not read', () => {
    const result = check({ type: 'div', props: {}, children: [], innerHTML: '<img onerror=x>', extra: 1 });
    expect(result).toEqual({ ok: true, content: { type: 'div', props: {}, children: [] } });
  });
});

describe('guides §5 building-block allow-list', () => {
  it("fails any other key with 'illegal building block key {key} found on guide {guide} step {step}'", () => {
    expect(MESSAGES.illegalBuildingBlockKey('onClick', 'g1', 's1')).toBe('illegal building block key onClick found on guide g1 step s1');
    for (const key of ['onClick', 'onclick', 'ONMOUSEOVER', 'onError', 'dangerouslySetInnerHTML', 'innerHTML', 'srcdoc',
      'formAction', 'action', 'srcset', 'poster', 'xlink:href', 'random', 'ID', 'key', 'ref', '__proto__', 'constructor', 'data-', 'aria-', 'data-a b']) {
      expect(check(withChild('div', { id: 'ok', [key]: 'x' })), key).toEqual(illegal(key));
    }
  });

  it('refuses a key built with JSON.parse, where __proto__ is an own key', () => {
    expect(check(JSON.parse('{"type":"div","props":{"__proto__":{"x":1}},"children":[]}'))).toEqual(illegal('__proto__'));
  });

  it('names the guide and step it was given, and reports the first illegal key in document order', () => {
    const content = { type: 'div', props: {}, children: [{ type: 'p', props: { first: 1 }, children: [{ type: 'b', props: { deeper: 1 } }] }, { type: 'p', props: { later: 1 } }] };
    expect(checkBuildingBlocks(content, 'welcome', 'welcome-1')).toEqual({
      ok: false,
      message: 'illegal building block key first found on guide welcome step welcome-1',
    });
  });

  it('checks the root node props as well', () => {
    expect(check({ type: 'div', props: { onLoad: 'x' }, children: [] })).toEqual(illegal('onLoad'));
  });

  it('allows every listed name and any data-* and aria-* name', () => {
    const props: Record<string, unknown> = {};
    for (const name of BUILDING_BLOCK_PROPS) props[name] = 'v';
    Object.assign(props, { 'data-step': '1', 'data-x.y_z': 'a', 'aria-label': 'Close', 'aria-hidden': true, 'data-onclick': 'text only' });
    const result = check(withChild('div', props));
    expect(result.ok && result.content.children![0]!.props).toEqual(props);
  });

  it('lists no event handler and no markup injector', () => {
    for (const name of BUILDING_BLOCK_PROPS) {
      expect(name.toLowerCase().startsWith('on'), name).toBe(false);
      expect(['dangerouslysetinnerhtml', 'innerhtml', 'srcdoc'], name).not.toContain(name.toLowerCase());
    }
  });

  it('refuses the src of an embed (any case of the type), while src stays allowed elsewhere', () => {
    expect(check(withChild('embed', { src: 'https://evil.example/x.swf' }))).toEqual(illegal('src'));
    expect(check(withChild('EMBED', { id: 'e', src: 'x' }))).toEqual(illegal('src'));
    expect(check(withChild('embed', { id: 'e' })).ok).toBe(true);
    expect(check(withChild('img', { src: 'https://cdn.example/a.png', alt: '' })).ok).toBe(true);
  });
});

describe('guides §5 script nodes are replaced with noscript', () => {
  it('turns script nodes (any case, at any depth) into noscript with their props, content and children, leaving the input untouched', () => {
    const input = {
      type: 'div',
      props: { id: 'guide-base', style: { color: 'red' } },
      children: [
        { type: 'script', props: { type: 'text/javascript' }, content: 'alert(1)' },
        { type: 'p', children: [{ type: 'SCRIPT', children: [{ type: 'span', content: 'inner' }] }] },
      ],
    };
    const before = structuredClone(input);
    const result = check(input);
    expect(result).toEqual({
      ok: true,
      content: {
        type: 'div',
        props: { id: 'guide-base', style: { color: 'red' } },
        children: [
          { type: 'noscript', props: { type: 'text/javascript' }, content: 'alert(1)' },
          { type: 'p', children: [{ type: 'noscript', children: [{ type: 'span', content: 'inner' }] }] },
        ],
      },
    });
    expect(input).toEqual(before);
    // A copy: no node, props object, children or actions array is shared with the input.
    if (!result.ok) throw new Error('expected ok');
    expect(result.content).not.toBe(input);
    expect(result.content.props).not.toBe(input.props);
    expect(result.content.children).not.toBe(input.children);
    expect(result.content.children![1]).not.toBe(input.children[1]);
  });

  it('copies actions, so changing the result leaves the input as it was', () => {
    const input = structuredClone(WIRE_EXAMPLE);
    const result = check(input);
    if (!result.ok) throw new Error('expected ok');
    result.content.children![1]!.actions![0]!.action = 'changed';
    result.content.children![1]!.props!.id = 'changed';
    expect(input).toEqual(WIRE_EXAMPLE);
  });

  it('does not rename other types that merely contain script', () => {
    const result = check(withChild('scripture', {}));
    expect(result.ok && result.content.children![0]!.type).toBe('scripture');
  });
});

describe('guides §5 content guards: depth and size', () => {
  it(`passes ${MAX_CONTENT_DEPTH} levels and refuses ${MAX_CONTENT_DEPTH + 1}`, () => {
    expect(MAX_CONTENT_DEPTH).toBe(64);
    expect(check(chain(MAX_CONTENT_DEPTH)).ok).toBe(true);
    expect(check(chain(MAX_CONTENT_DEPTH + 1))).toEqual(notJson);
  });

  it('refuses a very deep tree without overflowing the stack', () => {
    expect(check(chain(100_000))).toEqual(notJson);
  });

  it('refuses a cyclic tree (not JSON, but must not hang)', () => {
    const root: DomNode = { type: 'div', props: {}, children: [] };
    root.children!.push(root);
    expect(check(root)).toEqual(notJson);
  });

  it(`passes ${MAX_CONTENT_NODES} nodes and refuses one more`, () => {
    expect(MAX_CONTENT_NODES).toBe(5000);
    const wide = (count: number) => ({ type: 'div', props: {}, children: Array.from({ length: count - 1 }, () => ({ type: 'span' })) });
    expect(check(wide(MAX_CONTENT_NODES)).ok).toBe(true);
    expect(check(wide(MAX_CONTENT_NODES + 1))).toEqual(notJson);
    expect(check(wide(1_000_000))).toEqual(notJson);
  });

  it('counts actions in the same budget', () => {
    const actions = Array.from({ length: MAX_CONTENT_NODES }, () => ({ action: 'advanceGuide' }));
    expect(check({ type: 'div', props: {}, children: [{ type: 'button', actions }] })).toEqual(notJson);
  });
});

describe('guides §5, §8 content hashes: Unable to verify content at ...', () => {
  const url = 'https://cdn.example/guide-content/g1/s1/dom.json';
  const bytes = new TextEncoder().encode(JSON.stringify(WIRE_EXAMPLE));
  const mismatch = { ok: false, message: `Unable to verify content at ${url}` };
  type Alg = 'sha256' | 'sha384' | 'sha512';
  /** The reference digest, from node:crypto. */
  const ref = (alg: Alg, data: Uint8Array = bytes) => createHash(alg).update(data).digest('base64');
  const toUrlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const ALGS: Alg[] = ['sha256', 'sha384', 'sha512'];

  it('uses the exact message of the error catalogue', () => {
    expect(MESSAGES.unableToVerifyContent(url)).toBe(`Unable to verify content at ${url}`);
  });

  it('passes with no expected hash and no integrity parameters (undefined or blank)', async () => {
    expect(await verifyContentHash(bytes, url, undefined, defaultDigest)).toEqual({ ok: true });
    expect(await verifyContentHash(bytes, url, '', defaultDigest)).toEqual({ ok: true });
    expect(await verifyContentHash(bytes, `${url}?v=2#sha256=x`, '  ', defaultDigest)).toEqual({ ok: true });
  });

  it('verifies a bare base64 digest, picking the algorithm from its length', async () => {
    for (const alg of ALGS) {
      expect(await verifyContentHash(bytes, url, ref(alg), defaultDigest), alg).toEqual({ ok: true });
    }
  });

  it('verifies base64url without padding, and standard base64 without padding', async () => {
    for (const alg of ALGS) {
      expect(await verifyContentHash(bytes, url, toUrlSafe(ref(alg)), defaultDigest), alg).toEqual({ ok: true });
      expect(await verifyContentHash(bytes, url, ref(alg).replace(/=+$/, ''), defaultDigest), alg).toEqual({ ok: true });
    }
  });

  it('verifies SRI-style sha256-, sha384- and sha512- hashes', async () => {
    for (const alg of ALGS) {
      expect(await verifyContentHash(bytes, url, `${alg}-${ref(alg)}`, defaultDigest), alg).toEqual({ ok: true });
      expect(await verifyContentHash(bytes, url, `${alg}-${toUrlSafe(ref(alg))}`, defaultDigest), alg).toEqual({ ok: true });
    }
  });

  it('refuses an SRI prefix that names another algorithm than the digest is', async () => {
    expect(await verifyContentHash(bytes, url, `sha512-${ref('sha256')}`, defaultDigest)).toEqual(mismatch);
  });

  it('verifies integrity query parameters sha256, sha384 and sha512, percent-encoded or not', async () => {
    for (const alg of ALGS) {
      for (const value of [encodeURIComponent(ref(alg)), ref(alg), toUrlSafe(ref(alg))]) {
        const withParam = `${url}?v=3&${alg}=${value}`;
        expect(await verifyContentHash(bytes, withParam, undefined, defaultDigest), withParam).toEqual({ ok: true });
      }
    }
    const all = `${url}?sha256=${toUrlSafe(ref('sha256'))}&sha384=${toUrlSafe(ref('sha384'))}&sha512=${toUrlSafe(ref('sha512'))}#top`;
    expect(await verifyContentHash(bytes, all, ref('sha256'), defaultDigest)).toEqual({ ok: true });
  });

  it('requires every integrity parameter present to match, and the expected hash too', async () => {
    const good256 = toUrlSafe(ref('sha256'));
    const wrong384 = toUrlSafe(ref('sha384', new Uint8Array([1])));
    const twoParams = `${url}?sha256=${good256}&sha384=${wrong384}`;
    expect(await verifyContentHash(bytes, twoParams, undefined, defaultDigest)).toEqual({ ok: false, message: MESSAGES.unableToVerifyContent(twoParams) });
    const oneParam = `${url}?sha256=${good256}`;
    expect(await verifyContentHash(bytes, oneParam, ref('sha512', new Uint8Array([1])), defaultDigest))
      .toEqual({ ok: false, message: MESSAGES.unableToVerifyContent(oneParam) });
  });

  it('fails a digest of other content, and content with one byte changed', async () => {
    const other = new TextEncoder().encode('other');
    for (const alg of ALGS) {
      expect(await verifyContentHash(bytes, url, ref(alg, other), defaultDigest), alg).toEqual(mismatch);
      const tampered = bytes.slice();
      tampered[10] ^= 1;
      expect(await verifyContentHash(tampered, url, ref(alg), defaultDigest), alg).toEqual(mismatch);
      const paramUrl = `${url}?${alg}=${toUrlSafe(ref(alg))}`;
      expect(await verifyContentHash(tampered, paramUrl, undefined, defaultDigest), alg)
        .toEqual({ ok: false, message: MESSAGES.unableToVerifyContent(paramUrl) });
    }
  });

  it('fails hashes it cannot read: not base64, a length no SHA digest has, an empty or undecodable parameter', async () => {
    for (const expected of ['not base64!', 'abc', Buffer.alloc(20).toString('base64'), 'md5-' + ref('sha256'), `${ref('sha256')} ${ref('sha384')}`, 'sha256-']) {
      expect(await verifyContentHash(bytes, url, expected, defaultDigest), expected).toEqual(mismatch);
    }
    for (const query of ['sha256=', 'sha256', 'sha384=%E0%A4%A', `sha512=${toUrlSafe(ref('sha256'))}`]) {
      const withParam = `${url}?${query}`;
      expect(await verifyContentHash(bytes, withParam, undefined, defaultDigest), query)
        .toEqual({ ok: false, message: MESSAGES.unableToVerifyContent(withParam) });
    }
  });

  it('ignores other parameters, including ones named like Object properties', async () => {
    const withOthers = `${url}?constructor=1&toString=2&sha256x=3&SHA256=4`;
    expect(await verifyContentHash(bytes, withOthers, undefined, defaultDigest)).toEqual({ ok: true });
  });

  it('fails when the digest cannot be computed (no crypto.subtle outside a secure context)', async () => {
    const broken = async () => { throw new Error('crypto.subtle is not available'); };
    expect(await verifyContentHash(bytes, url, ref('sha256'), broken)).toEqual(mismatch);
  });

  it('computes each algorithm once however many hashes use it', async () => {
    const calls: string[] = [];
    const counting = (alg: 'SHA-256' | 'SHA-384' | 'SHA-512', data: Uint8Array) => {
      calls.push(alg);
      return defaultDigest(alg, data);
    };
    const twice = `${url}?sha256=${toUrlSafe(ref('sha256'))}&sha256=${encodeURIComponent(ref('sha256'))}`;
    expect(await verifyContentHash(bytes, twice, ref('sha256'), counting)).toEqual({ ok: true });
    expect(calls).toEqual(['SHA-256']);
  });
});

describe('guides §5 script and style URLs come from allowed origins', () => {
  const base = 'https://content.example/guides/';
  const allowed = ['https://cdn.example/', 'https://content.example', 'http://localhost:8080/assets/'];

  it('allows a URL on an allowed origin and returns the resolved href', () => {
    expect(isAllowedAssetUrl('https://cdn.example/g1/content.js', base, allowed)).toEqual({ ok: true, href: 'https://cdn.example/g1/content.js' });
    expect(isAllowedAssetUrl('HTTPS://CDN.EXAMPLE:443/a.css', base, allowed)).toEqual({ ok: true, href: 'https://cdn.example/a.css' });
    expect(isAllowedAssetUrl('http://localhost:8080/x.js', base, allowed)).toEqual({ ok: true, href: 'http://localhost:8080/x.js' });
  });

  it('normalises allowed entries: trailing slash, path and default port do not matter', () => {
    expect(isAllowedAssetUrl('https://cdn.example/a.js', base, ['https://cdn.example:443/some/path/']).ok).toBe(true);
    expect(isAllowedAssetUrl('https://cdn.example/a.js', base, ['https://cdn.example']).ok).toBe(true);
  });

  it('resolves a relative URL against the base', () => {
    expect(isAllowedAssetUrl('g1/guide.css', base, allowed)).toEqual({ ok: true, href: 'https://content.example/guides/g1/guide.css' });
    expect(isAllowedAssetUrl('/x.js', base, allowed)).toEqual({ ok: true, href: 'https://content.example/x.js' });
    // Resolved as the browser would: a protocol-relative URL names another host.
    expect(isAllowedAssetUrl('//evil.example/x.js', base, allowed)).toEqual({
      ok: false,
      message: 'Asset origin https://evil.example of https://evil.example/x.js is not allowed; allowed origins: https://cdn.example, https://content.example, http://localhost:8080',
    });
  });

  it('refuses another origin, naming it and the allowed list', () => {
    expect(isAllowedAssetUrl('https://evil.example/x.js', base, allowed)).toEqual({
      ok: false,
      message: 'Asset origin https://evil.example of https://evil.example/x.js is not allowed; allowed origins: https://cdn.example, https://content.example, http://localhost:8080',
    });
    // Same host, other scheme or port: another origin.
    expect(isAllowedAssetUrl('http://cdn.example/x.js', base, allowed).ok).toBe(false);
    expect(isAllowedAssetUrl('https://cdn.example:8443/x.js', base, allowed).ok).toBe(false);
    expect(isAllowedAssetUrl('https://cdn.example.evil.example/x.js', base, allowed).ok).toBe(false);
    expect(isAllowedAssetUrl('https://a.example/x.js', base, []))
      .toEqual({ ok: false, message: 'Asset origin https://a.example of https://a.example/x.js is not allowed; allowed origins: none' });
  });

  it('is not fooled by userinfo or backslashes: the origin is what the browser would load from', () => {
    expect(isAllowedAssetUrl('https://cdn.example@evil.example/x.js', base, allowed).ok).toBe(false);
    // A backslash ends the host of an http(s) URL: the browser loads this from cdn.example, and so says the check.
    expect(isAllowedAssetUrl('https://cdn.example\\@evil.example/x.js', base, allowed))
      .toEqual({ ok: true, href: 'https://cdn.example/@evil.example/x.js' });
    expect(isAllowedAssetUrl('https://evil.example\\@cdn.example/x.js', base, allowed).ok).toBe(false);
    expect(isAllowedAssetUrl('https://evil.example#@cdn.example/x.js', base, allowed).ok).toBe(false);
  });

  it('refuses javascript:, data: and other non-http schemes', () => {
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/javascript,alert(1)', 'blob:https://cdn.example/1', 'ftp://cdn.example/x.js']) {
      expect(isAllowedAssetUrl(url, base, allowed), url).toEqual({
        ok: false,
        message: `Asset URL ${url} is not http or https: scripts and styles load only from allowed origins`,
      });
    }
  });

  it("fails an unparseable URL with 'unable to parse ...'", () => {
    expect(MESSAGES.unableToParse('x')).toBe('unable to parse x');
    for (const url of ['https://', 'http://[::1', '', '   ']) {
      expect(isAllowedAssetUrl(url, base, allowed), url).toEqual({ ok: false, message: `unable to parse ${url}` });
    }
    // A relative URL needs a base that parses; an absolute one does not.
    expect(isAllowedAssetUrl('x.js', 'not a base', allowed)).toEqual({ ok: false, message: 'unable to parse x.js' });
    expect(isAllowedAssetUrl('https://cdn.example/x.js', 'not a base', allowed)).toEqual({ ok: true, href: 'https://cdn.example/x.js' });
  });

  it('ignores allowed entries that are not http(s) URLs', () => {
    expect(isAllowedAssetUrl('https://cdn.example/x.js', base, ['cdn.example', 'javascript:x', '*']).ok).toBe(false);
  });
});

describe('issue #17 guides §3 step attributes.variables', () => {
  const node: DomNode = {
    type: 'div',
    props: { id: 'guide-base' },
    children: [
      { type: 'p', props: {}, content: 'Your {{plan}} plan has {{ seats }} seats, {{missing}} stays' },
      { type: 'img', props: { src: 'https://cdn.example/{{plan}}.png', alt: '{{plan}} logo' } },
    ],
  };

  it('fills {{name}} in text and text props as text, leaves URLs and unknown names alone', () => {
    const filled = fillVariables(node, { plan: '<b>Pro</b>', seats: 5 });
    expect(filled.children![0].content).toBe('Your <b>Pro</b> plan has 5 seats, {{missing}} stays');
    expect(filled.children![1].props).toEqual({ src: 'https://cdn.example/{{plan}}.png', alt: '<b>Pro</b> logo' });
    // The step's content itself is not changed.
    expect(node.children![0].content).toContain('{{plan}}');
    expect(fillVariables(node, undefined)).toBe(node);
    expect(fillVariables(node, ['x'])).toBe(node);
  });
});
