/**
 * Event property rules (analytics §3 "Event property rule: name, path, source or selector, featureRules,
 * featureId"): values a host wants on the clicks of a feature, delivered in guide.json's `features`.
 *
 * The wire shape of `features` is not given by the spec; Waymark reads each feature as
 * `{ featureId, featureRules: string[] (CSS selectors), eventProperties: [{ name, selector | path | source }] }`,
 * and takes the guides spec's name for the selectors too (its guide load response lists `featureRule`): a
 * `featureRule` string or list where `featureRules` is missing;
 * - `selector`: the value (inputs) or text of the first element the selector finds on the page;
 * - `path`: a dotted path into the page's globals (`app.user.plan`), kept when it is a string, number or boolean;
 * - `source`: an attribute of the clicked feature element (`data-plan`).
 */

/** One property to collect on the clicks of a feature. */
export interface EventPropertyRule {
  name: string;
  featureId: string;
  /** CSS selectors of the feature: a click on (or inside) a match collects the property. */
  featureRules: string[];
  selector?: string;
  path?: string;
  source?: string;
}

/** The rules of a guide.json `features` list; malformed entries are left out (and named in `problems`). */
export function readEventPropertyRules(features: unknown): { rules: EventPropertyRule[]; problems: string[] } {
  const rules: EventPropertyRule[] = [];
  const problems: string[] = [];
  if (features === undefined || features === null) return { rules, problems };
  if (!Array.isArray(features)) return { rules, problems: ['features must be an array'] };
  features.forEach((feature, i) => {
    const f = feature as { featureId?: unknown; featureRules?: unknown; featureRule?: unknown; eventProperties?: unknown };
    const given = f?.featureRules ?? f?.featureRule;
    const featureRules = (Array.isArray(given) ? given : [given]).filter((r): r is string => typeof r === 'string' && r.trim() !== '');
    if (!featureRules.length || !Array.isArray(f?.eventProperties)) {
      if (f?.eventProperties !== undefined) problems.push(`feature ${i} needs featureRules (CSS selectors) and eventProperties`);
      return;
    }
    for (const p of f.eventProperties as Array<Record<string, unknown>>) {
      const name = p?.name;
      const kinds = (['selector', 'path', 'source'] as const).filter((k) => typeof p?.[k] === 'string' && p[k] !== '');
      if (typeof name !== 'string' || !name || kinds.length !== 1) {
        problems.push(`feature ${i}: an event property needs a name and exactly one of selector, path or source`);
        continue;
      }
      rules.push({ name, featureId: String(f.featureId ?? i), featureRules, [kinds[0]!]: p[kinds[0]!] as string });
    }
  });
  return { rules, problems };
}
