import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTargetCache, queryDeep } from '../../shim/queryDeep';

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
