/** The Audit page's changed fields (issue #33): each leaf of before and after that differs, by path. */
import { describe, expect, it } from 'vitest';
import { auditChanges, shortValue } from '../../console/auditChanges';

describe('issue #33 audit entry changes', () => {
  it('a guide published: the state, and fields only on one side', () => {
    const guide = { id: 'welcome', steps: [{ id: 's1', markdown: 'Hello' }] };
    expect(auditChanges({ state: 'draft', guide }, { version: 3, state: 'public', guide: { ...guide, publishedAt: 5 } })).toEqual([
      { path: 'state', before: 'draft', after: 'public' },
      { path: 'version', after: 3 },
      { path: 'guide.publishedAt', after: 5 },
    ]);
  });

  it("a step's text by its path; a step removed; a role changed; nothing changed", () => {
    const before = { guide: { steps: [{ id: 's1', markdown: 'Hello' }, { id: 's2', markdown: 'Bye' }] } };
    const after = { guide: { steps: [{ id: 's1', markdown: 'Hello there' }] } };
    expect(auditChanges(before, after)).toEqual([
      { path: 'guide.steps[0].markdown', before: 'Hello', after: 'Hello there' },
      { path: 'guide.steps[1].id', before: 's2' },
      { path: 'guide.steps[1].markdown', before: 'Bye' },
    ]);
    expect(auditChanges({ role: 'viewer', email: 'a@b.c' }, { role: 'editor', email: 'a@b.c' })).toEqual([{ path: 'role', before: 'viewer', after: 'editor' }]);
    expect(auditChanges({ a: [] }, { a: [] })).toEqual([]);
    expect(auditChanges('x', 'y')).toEqual([{ path: '(value)', before: 'x', after: 'y' }]);
  });

  it('values in one short line', () => {
    expect(shortValue('draft')).toBe('“draft”');
    expect(shortValue(undefined)).toBe('—');
    expect(shortValue({ a: 1 })).toBe('{"a":1}');
    expect(shortValue('x'.repeat(200), 10)).toBe(`“${'x'.repeat(8)}…`);
  });
});
