/**
 * What "Tag this feature" (issue #35) derives from the page, pure so it runs without a DOM: the page rule of the
 * current address (its path, on any host: the console's page rules, server/analytics/compileUrlRule), the name a
 * new page gets, and the console's page of a saved feature.
 */

/**
 * The URL rule of the page at `href`: its path, on any host, query and fragment ignored (`/reports/7`). A `*` or `:`
 * of the path is written `\*`, `\:` (rule syntax otherwise: a wildcard, a path parameter), so the rule is this page.
 */
export function pageRuleOf(href: string): string {
  try {
    return (new URL(href).pathname || '/').replace(/[*:]/g, '\\$&');
  } catch {
    return '/';
  }
}

/** A new page's name: the document's title, else its rule; at most 200 characters, as the console allows. */
export function pageNameOf(title: string, rule: string): string {
  return (title.trim() || rule).slice(0, 200);
}

/** The console's page of feature `id` of `apiKey` (the console is served under /console of its API's origin). */
export function consoleFeatureUrl(baseUrl: string, apiKey: string, id: string): string {
  return new URL(`/console/apps/${encodeURIComponent(apiKey)}/features/${encodeURIComponent(id)}`, baseUrl).href;
}
