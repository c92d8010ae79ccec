/**
 * How paths read an event as a step (issue #35 "Funnels, paths, retention"), with the app's rules compiled once:
 * - a page load is the first of the app's pages (in creation order) whose URL rule matches its address, else the
 *   address's path without query or fragment (`/reports/7`, as the console's top pages show an address);
 * - a click is the first of the app's features (in creation order) whose selector matches its element and, when
 *   the feature is limited to a page, whose page's rule matches its address; a click no feature matches is no step;
 * - a track event is `track: <name>`.
 * Matching is Node's (compileSelector, compileUrlRule), over each distinct element and address once: the answers
 * are kept by value, so the events of a span are never matched (nor their elements parsed) one by one.
 */
import type { Feature, Page } from '../../shared/api/rules';
import { compileSelector, type ElementMatcher } from './compileSelector';
import { compileUrlRule, type UrlRule } from './compileUrlRule';
import type { Step } from './foldPaths';

/** An event as the paths query reads it: its type, address, element (jsonb text) and track name. */
export interface StepSource {
  type: string;
  url: string | null;
  target: string | null;
  track: string | null;
}

/** Reads events as steps; the same step object for the same key (a timeline holds many). */
export type StepReader = (event: StepSource) => Step | null;

/** The key and label of each kind of step. */
export const pageStep = (page: Pick<Page, 'id' | 'name'>): Step => ({ key: `page:${page.id}`, label: page.name, kind: 'page', ref: page.id });
export const featureStep = (feature: Pick<Feature, 'id' | 'name'>): Step => ({ key: `feature:${feature.id}`, label: feature.name, kind: 'feature', ref: feature.id });
export const trackStep = (name: string): Step => ({ key: `track:${name}`, label: `track: ${name}`, kind: 'track' });
const urlStep = (path: string): Step => ({ key: `url:${path}`, label: path, kind: 'url' });

/** An address's path without query or fragment; the address up to its `?` or `#` when it does not parse. */
export function addressPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

/** A memo of `compute` by its string argument. */
function memo<T>(compute: (value: string) => T): (value: string) => T {
  const known = new Map<string, T>();
  return (value) => {
    if (known.has(value)) return known.get(value)!;
    const answer = compute(value);
    known.set(value, answer);
    return answer;
  };
}

/** A reader over the app's features and pages, each list oldest first (RuleStore's order). */
export function createStepReader(features: readonly Feature[], pages: readonly Page[]): StepReader {
  // Stored rules were checked when saved; one that no longer compiles matches nothing (as queryRuleUse).
  const pageRules = pages.map((page) => {
    const rule = compileUrlRule(page.rule.url);
    return { step: pageStep(page), rule: 'problem' in rule ? undefined : (rule as UrlRule) };
  });
  const pageIndex = new Map(pages.map((page, i) => [page.id, i]));
  const featureRules = features.map((feature) => {
    const selector = compileSelector(feature.rule.selector);
    return { step: featureStep(feature), selector: 'problem' in selector ? undefined : (selector as ElementMatcher), page: feature.rule.page === undefined ? undefined : (pageIndex.get(feature.rule.page) ?? -1) };
  });

  const pageMatches = pageRules.map(({ rule }) => memo((url) => rule?.matches(url) ?? false));
  const loadStep = memo((url): Step => pageRules.find((_, i) => pageMatches[i]!(url))?.step ?? urlStep(addressPath(url)));
  /** The features whose selector matches an element, in creation order. */
  const featuresOf = memo((target) => {
    const element: unknown = JSON.parse(target);
    return featureRules.filter(({ selector }) => selector?.matchesClick(element) ?? false);
  });
  const tracks = memo(trackStep);

  return (event) => {
    switch (event.type) {
      case 'load':
        return event.url === null ? null : loadStep(event.url);
      case 'click': {
        if (event.target === null) return null;
        const url = event.url;
        const feature = featuresOf(event.target).find(({ page }) => page === undefined || (url !== null && (pageMatches[page]?.(url) ?? false)));
        return feature?.step ?? null;
      }
      case 'track':
        return event.track === null ? null : tracks(event.track);
      default:
        return null;
    }
  };
}
