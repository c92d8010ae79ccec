import { describe, expect, it } from 'vitest';
import { readEventPropertyRules } from '../../shared/analytics/eventPropertyRules';

describe('analytics §3 event property rules from guide.json features', () => {
  it('reads one rule per event property, with its feature and exactly one of selector, path or source', () => {
    const { rules, problems } = readEventPropertyRules([
      { featureId: 'buy', featureRules: ['.buy', ''], eventProperties: [{ name: 'plan', source: 'data-plan' }, { name: 'seats', selector: '#seats' }, { name: 'tier', path: 'app.tier' }] },
      { featureId: 'nothing', featureRules: ['.x'] },
    ]);
    expect(problems).toEqual([]);
    expect(rules).toEqual([
      { name: 'plan', featureId: 'buy', featureRules: ['.buy'], source: 'data-plan' },
      { name: 'seats', featureId: 'buy', featureRules: ['.buy'], selector: '#seats' },
      { name: 'tier', featureId: 'buy', featureRules: ['.buy'], path: 'app.tier' },
    ]);
  });

  it('takes the guides spec\'s featureRule (one selector or a list) where featureRules is missing', () => {
    const { rules, problems } = readEventPropertyRules([
      { featureId: 'one', featureRule: '.one', eventProperties: [{ name: 'a', source: 'data-a' }] },
      { featureId: 'list', featureRule: ['.l1', '.l2'], eventProperties: [{ name: 'b', source: 'data-b' }] },
      { featureId: 'both', featureRules: ['.rules'], featureRule: '.rule', eventProperties: [{ name: 'c', source: 'data-c' }] },
    ]);
    expect(problems).toEqual([]);
    expect(rules.map((r) => [r.featureId, r.featureRules])).toEqual([['one', ['.one']], ['list', ['.l1', '.l2']], ['both', ['.rules']]]);
  });

  it('leaves malformed entries out and says why', () => {
    expect(readEventPropertyRules(undefined)).toEqual({ rules: [], problems: [] });
    expect(readEventPropertyRules({})).toEqual({ rules: [], problems: ['features must be an array'] });
    const { rules, problems } = readEventPropertyRules([
      { featureId: 'a', featureRules: [], eventProperties: [{ name: 'p', path: 'x' }] },
      { featureId: 'b', featureRules: ['.b'], eventProperties: [{ name: '', path: 'x' }, { name: 'two', path: 'x', selector: '#y' }, { name: 'none' }] },
    ]);
    expect(rules).toEqual([]);
    expect(problems).toEqual([
      'feature 0 needs featureRules (CSS selectors) and eventProperties',
      'feature 1: an event property needs a name and exactly one of selector, path or source',
      'feature 1: an event property needs a name and exactly one of selector, path or source',
      'feature 1: an event property needs a name and exactly one of selector, path or source',
    ]);
  });
});
