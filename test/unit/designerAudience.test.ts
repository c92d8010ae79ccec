/**
 * Issue #15, a guide's audience in the designer: the rules an author writes <-> the guide's `audience`, judged by
 * the same conditions the collector runs on guide.json (shared/segments/segmentConditions.ts).
 */
import { describe, expect, it } from 'vitest';
import { checkGuideBody } from '../../server/guides/checkGuideBody';
import { forAudience } from '../../server/ingest/registerDataRoutes';
import { describeAudience, fromAudience, newAudienceRule, repeatedPaths, ruleProblem, toAudience, type AudienceRule } from '../../overlay/author/designer/designerAudience';
import { fromGuide, newGuide, toGuide } from '../../overlay/author/designer/designerGuide';

const rule = (fields: Partial<AudienceRule>): AudienceRule => ({ ...newAudienceRule(), ...fields });
const subject = (visitor: object, account: object = {}, ids: object = {}) => ({ visitorId: 'v1', accountId: 'a1', url: 'https://app.example/', ...ids, metadata: { visitor, account, parentAccount: {} } });

describe('issue #15 designer: a guide\'s audience', () => {
  it('writes typed conditions the collector judges, and reads them back as written', () => {
    const rules = [
      rule({ source: 'visitor', field: 'role', operator: 'in', value: 'admin, owner' }),
      rule({ source: 'account', field: 'seats', operator: 'equals', value: '25', valueType: 'number' }),
      rule({ source: 'visitor', field: 'beta', value: 'true', valueType: 'boolean' }),
      rule({ source: 'accountId', operator: 'startsWith', value: 'acme' }),
    ];
    const audience = toAudience(rules)!;
    expect(audience).toEqual({ when: { 'visitor.role': { in: ['admin', 'owner'] }, 'account.seats': { equals: 25 }, 'visitor.beta': { equals: true }, accountId: { startsWith: 'acme' } } });
    const d = { ...newGuide('https://app.example/'), audience: rules };
    const guide = toGuide(d);
    expect(checkGuideBody(guide, d.id)).toBeNull();
    expect(fromGuide(guide).audience).toEqual(rules.map((r) => (r.operator === 'in' ? { ...r, value: 'admin, owner' } : r)));
    // The collector's verdict on the guide the designer wrote.
    const inside = subject({ role: 'owner', beta: true }, { seats: 25 }, { accountId: 'acme-1' });
    expect(forAudience([guide], inside).map((g) => g.id)).toEqual([d.id]);
    expect(forAudience([guide], inside)[0]).not.toHaveProperty('audience');
    // 25 the number is not "25" the text.
    expect(forAudience([guide], subject({ role: 'owner', beta: true }, { seats: '25' }, { accountId: 'acme-1' }))).toEqual([]);
    expect(forAudience([guide], subject({ role: 'viewer', beta: true }, { seats: 25 }, { accountId: 'acme-1' }))).toEqual([]);
  });

  it('leaves out a rule it cannot save, saying why; no rule is everyone', () => {
    expect(ruleProblem(rule({ field: '', value: 'x' }))).toMatch(/Name the metadata field/);
    expect(ruleProblem(rule({ field: 'role', value: ' ' }))).toBe('Write the value.');
    expect(ruleProblem(rule({ field: 'seats', value: 'many', valueType: 'number' }))).toBe('The value is not a number.');
    expect(ruleProblem(rule({ field: 'beta', value: 'yes', valueType: 'boolean' }))).toBe('The value is true or false.');
    expect(ruleProblem(rule({ field: 'seats', operator: 'startsWith', value: '2', valueType: 'number' }))).toMatch(/compares text/);
    expect(ruleProblem(rule({ source: 'visitorId', field: '', value: 'v1' }))).toBeNull();
    expect(toAudience([rule({ field: '', value: 'x' })])).toBeUndefined();
    const d = { ...newGuide('https://app.example/'), audience: [] };
    const stored = { ...toGuide(d), audience: { when: { 'visitor.role': 'admin' } } };
    // Cleared in the designer, the stored audience goes.
    expect(toGuide(d, stored)).not.toHaveProperty('audience');
    // issue #35: a segment the console set is not the designer's to drop.
    const aimed = { ...toGuide(d), audience: { when: { 'visitor.role': 'admin' }, segment: 'seg-1' } };
    expect(toGuide(d, aimed).audience).toEqual({ segment: 'seg-1' });
    expect(toGuide({ ...d, audience: [rule({ field: 'role', value: 'owner' })] }, aimed).audience).toEqual({ when: { 'visitor.role': { equals: 'owner' } }, segment: 'seg-1' });
    expect(describeAudience([])).toMatch(/^Every visitor/);
  });

  it('reads a hand-written exact value as "is", and sums the audience up in words', () => {
    const rules = fromAudience({ when: { 'visitor.plan.tier': 'gold', visitorId: { contains: 'qa' } } });
    expect(rules).toEqual([
      { source: 'visitor', field: 'plan.tier', operator: 'equals', value: 'gold', valueType: 'text' },
      { source: 'visitorId', field: '', operator: 'contains', value: 'qa', valueType: 'text' },
    ]);
    expect(describeAudience(rules)).toBe("Only visitors where visitor's plan.tier is gold and visitor id contains qa.");
    expect(fromAudience({ when: { bad: 1 } })).toEqual([]);
    expect(repeatedPaths([rule({ field: 'role' }), rule({ field: 'role ' }), rule({ field: 'plan' })])).toEqual(['visitor.role']);
  });
});
