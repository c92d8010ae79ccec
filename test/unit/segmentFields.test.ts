/**
 * issue #35 the console's segment form (console/segmentFields.ts) and words (console/segmentWords.ts): a stored
 * definition read into the form's rows and written back unchanged, values typed read as the condition language's
 * (numbers, booleans and null as such), the server's 400 field mapped onto the form's, the definition in words.
 */
import { describe, expect, it } from 'vitest';
import { definitionOf, fieldsOf, formFieldOf } from '../../console/segmentFields';
import { definitionInWords } from '../../console/segmentWords';
import type { SegmentDefinition } from '../../shared/api/segments';

const DEFINITION: SegmentDefinition = {
  when: { 'visitor.plan': 'pro', 'visitor.seats': 3, 'account.tier': { in: ['gold', 'silver'] }, accountId: { startsWith: 'acme' }, 'visitor.tags': { contains: 'beta' } },
  behaviour: [
    { feature: 'f1', atLeast: 3, days: 30 },
    { page: 'p1' },
    { track: 'report shared', days: 7 },
    { guideSeen: 'g1' },
    { never: { page: 'p2' }, days: 14 },
    { never: { track: 'churned' } },
  ],
};

const NAMES = {
  feature: (id: string) => ({ f1: 'Export' })[id],
  page: (id: string) => ({ p1: 'Reports', p2: 'Billing' })[id],
  guide: (id: string) => ({ g1: 'Welcome' })[id],
};

describe('issue #35 the segment form', () => {
  it('reads a stored definition into rows and writes it back as it was', () => {
    const fields = fieldsOf('Pro', DEFINITION);
    expect(fields.when[1]).toEqual({ path: 'visitor.seats', operator: 'is', value: '3' });
    expect(fields.behaviour[4]).toEqual({ kind: 'neverPage', target: 'p2', atLeast: '', days: '14' });
    expect(definitionOf(fields)).toEqual(DEFINITION);
  });

  it('reads typed values: numbers, true, false and null as such, the rest as text; a comma list for "is one of"', () => {
    const fields = { name: 'x', behaviour: [], when: [
      { path: 'visitor.n', operator: 'is' as const, value: '-2.5' },
      { path: 'visitor.b', operator: 'is' as const, value: 'true' },
      { path: 'visitor.s', operator: 'is' as const, value: '3 seats' },
      { path: 'visitor.i', operator: 'in' as const, value: 'a, 2, null' },
    ] };
    expect(definitionOf(fields).when).toEqual({ 'visitor.n': -2.5, 'visitor.b': true, 'visitor.s': '3 seats', 'visitor.i': { in: ['a', 2, null] } });
  });

  it("maps the server's 400 field onto the form's", () => {
    expect(formFieldOf('name')).toBe('name');
    expect(formFieldOf('definition.behaviour[2].atLeast')).toBe('behaviour.2.atLeast');
    expect(formFieldOf('definition.behaviour[0].never.page')).toBe('behaviour.0.target');
    expect(formFieldOf('definition.behaviour[1].guideSeen')).toBe('behaviour.1.target');
    expect(formFieldOf('definition.when.visitor.plan')).toBeUndefined();
  });

  it('says the definition in words', () => {
    expect(definitionInWords(DEFINITION, NAMES)).toBe(
      'visitor.plan is pro and visitor.seats is 3 and account.tier is one of gold, silver and accountId starts with acme and visitor.tags contains beta' +
        ' and used Export at least 3 times in the last 30 days and visited Reports and sent the track event "report shared" in the last 7 days' +
        ' and saw the guide Welcome and never visited Billing in the last 14 days and never sent the track event "churned"',
    );
  });
});
