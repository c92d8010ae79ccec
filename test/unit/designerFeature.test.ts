/**
 * issue #35 "Tag this feature": what the designer derives from the page (overlay/author/designer/designerFeature):
 * the page rule of an address, a new page's name and the console's link to a saved feature.
 */
import { describe, expect, it } from 'vitest';
import { consoleFeatureUrl, pageNameOf, pageRuleOf } from '../../overlay/author/designer/designerFeature';
import { compileUrlRule } from '../../server/analytics/compileUrlRule';

describe('issue #35 designer: Tag this feature', () => {
  it('the page rule is the address\'s path on any host, query and fragment left out', () => {
    expect(pageRuleOf('https://app.example.com/reports/7?tab=2#top')).toBe('/reports/7');
    expect(pageRuleOf('https://app.example.com')).toBe('/');
    expect(pageRuleOf('https://app.example.com/café')).toBe('/caf%C3%A9');
    expect(pageRuleOf('not a url')).toBe('/');
  });

  it('a path\'s own `*` and `:` are written literal, so the rule is that page and no other', () => {
    expect(pageRuleOf('https://app.example.com/wiki/Special:Search')).toBe('/wiki/Special\\:Search');
    expect(pageRuleOf('https://app.example.com/files/*/:id')).toBe('/files/\\*/\\:id');
    for (const href of ['https://app.example.com/wiki/Special:Search', 'https://app.example.com/files/*/:id', 'https://app.example.com/reports/7', 'https://app.example.com/caf\u00e9']) {
      const rule = compileUrlRule(pageRuleOf(href));
      if ('problem' in rule) throw new Error(rule.problem);
      expect(rule.matches(href), href).toBe(true);
    }
    const files = compileUrlRule(pageRuleOf('https://app.example.com/files/*/:id'));
    if ('problem' in files) throw new Error(files.problem);
    expect(files.matches('https://app.example.com/files/a/7')).toBe(false);
  });

  it('a new page is named after the title, else its rule, at most 200 characters', () => {
    expect(pageNameOf('  Reports ', '/reports')).toBe('Reports');
    expect(pageNameOf('', '/reports')).toBe('/reports');
    expect(pageNameOf('x'.repeat(300), '/')).toHaveLength(200);
  });

  it('links to the feature\'s page of the console, under /console of the API\'s origin', () => {
    expect(consoleFeatureUrl('https://console.example.com', 'app 1', 'f/1')).toBe('https://console.example.com/console/apps/app%201/features/f%2F1');
  });
});
