import { afterEach, describe, expect, it, vi } from 'vitest';
import { SHADOW_ROOT_SEARCH_BATCH } from '../../shared/constants';
import { createShadowSearch, createTargetCache, queryDeep } from '../../shim/queryDeep';

/** A stand-in element: what the lookups read of one. */
function fakeElement(options: { matches?: (s: string) => boolean; shadowRoot?: { querySelector(s: string): unknown } } = {}) {
  return { isConnected: true, matches: vi.fn(options.matches ?? (() => true)), shadowRoot: options.shadowRoot ?? null };
}

afterEach(() => {
  delete (globalThis as { document?: unknown }).document;
});

describe('issue #7 guide targets inside open shadow roots and on large pages', () => {
  it('host >>> inner looks inside the host\'s shadow root, level by level', () => {
    const inner = fakeElement();
    const host = fakeElement({ shadowRoot: { querySelector: (s: string) => (s === '#save' ? inner : null) } });
    const root = { querySelector: (s: string) => (s === 'my-widget' ? host : null) };
    expect(queryDeep('my-widget >>> #save', root as unknown as ParentNode)).toBe(inner);
    expect(queryDeep('my-widget >>> #missing', root as unknown as ParentNode)).toBeNull();
    expect(queryDeep('nothing >>> #save', root as unknown as ParentNode)).toBeNull();
    const throwing = { querySelector: () => { throw new SyntaxError('bad selector'); } };
    expect(queryDeep('[[', throwing as unknown as ParentNode)).toBeNull();
  });

  it('keeps a found target while it is connected and matching, without searching the document again', () => {
    const target = fakeElement();
    const querySelector = vi.fn(() => target);
    (globalThis as { document?: unknown }).document = { querySelector };
    const lookup = createTargetCache();
    for (let tick = 0; tick < 10; tick++) expect(lookup('#report')).toBe(target);
    expect(querySelector).toHaveBeenCalledTimes(1);
    expect(target.matches).toHaveBeenCalledTimes(9);
    // Gone from the page: searched for again.
    target.isConnected = false;
    querySelector.mockReturnValue(null as never);
    expect(lookup('#report')).toBeNull();
    expect(lookup('#report')).toBeNull();
    expect(querySelector).toHaveBeenCalledTimes(3);
  });

  it('searches again when the kept element no longer matches its selector', () => {
    const first = fakeElement({ matches: () => false });
    const second = fakeElement();
    const querySelector = vi.fn().mockReturnValueOnce(first).mockReturnValueOnce(second);
    (globalThis as { document?: unknown }).document = { querySelector };
    const lookup = createTargetCache();
    expect(lookup('.active')).toBe(first);
    expect(lookup('.active')).toBe(second);
    expect(querySelector).toHaveBeenCalledTimes(2);
  });
});

/** A stand-in tree: nodes with children, some with an open shadow root, and a document that walks them in order. */
interface FakeNode {
  children: FakeNode[];
  shadowRoot?: FakeNode & { querySelector(s: string): unknown };
  attrs?: string[];
  getAttributeNames(): string[];
}
const node = (children: FakeNode[] = [], extra: Partial<FakeNode> = {}): FakeNode => ({ children, getAttributeNames() { return this.attrs ?? []; }, ...extra });
const shadowOf = (children: FakeNode[], answers: Record<string, unknown>) => ({ ...node(children), querySelector: (s: string) => answers[s] ?? null });

function fakeDocument(root: FakeNode, walked: { count: number }) {
  (globalThis as { NodeFilter?: unknown }).NodeFilter = { SHOW_ELEMENT: 1 };
  (globalThis as { document?: unknown }).document = {
    ...root,
    querySelector: () => null,
    createTreeWalker(start: FakeNode) {
      const order: FakeNode[] = [];
      const visit = (n: FakeNode) => n.children.forEach((c) => (order.push(c), visit(c)));
      visit(start);
      let i = 0;
      return { nextNode: () => (i < order.length ? (walked.count++, order[i++]) : null) };
    },
  };
}

describe('guides §9 shadow root search batch 5000 nodes', () => {
  afterEach(() => {
    delete (globalThis as { NodeFilter?: unknown }).NodeFilter;
  });

  it('is the spec\'s 5000', () => {
    expect(SHADOW_ROOT_SEARCH_BATCH).toBe(5000);
  });

  it('finds a plain selector inside nested open shadow roots, not in Waymark\'s own', () => {
    const target = { id: 'deep' };
    const decoy = { id: 'ours' };
    const inner = node([], { shadowRoot: shadowOf([], { '#save': target }) });
    const outer = node([], { shadowRoot: shadowOf([inner], {}) });
    const overlay = node([], { attrs: ['data-waymark-overlay'], shadowRoot: shadowOf([], { '#save': decoy }) });
    fakeDocument(node([node([overlay]), outer]), { count: 0 });
    expect(createShadowSearch()('#save')).toBe(target);
  });

  it('walks at most a batch of elements per lookup and goes on from there at the next', () => {
    const walked = { count: 0 };
    const target = { id: 'late' };
    const filler = Array.from({ length: 25 }, () => node());
    fakeDocument(node([...filler, node([], { shadowRoot: shadowOf([], { '#late': target }) })]), walked);
    const search = createShadowSearch(10);
    expect(search('#late')).toBeNull();
    expect(walked.count).toBe(10);
    expect(search('#late')).toBeNull();
    expect(walked.count).toBe(20);
    expect(search('#late')).toBe(target);
    expect(walked.count).toBe(26);
    // A pass that finds nothing ends, and the next lookup starts over from the document.
    walked.count = 0;
    expect(search('#gone')).toBeNull();
    expect(search('#gone')).toBeNull();
    expect(search('#gone')).toBeNull();
    expect(walked.count).toBe(26);
    expect(search('#gone')).toBeNull();
    expect(walked.count).toBe(36);
  });

  it('the target cache looks in the shadow roots only for a plain selector the document does not answer', () => {
    const target = { id: 'in-root', isConnected: true, matches: () => true };
    fakeDocument(node([node([], { shadowRoot: shadowOf([], { '#in-root': target }) })]), { count: 0 });
    const lookup = createTargetCache();
    expect(lookup('#in-root')).toBe(target);
    expect(lookup('x-host >>> #in-root')).toBeNull();
  });
});
