/**
 * The checks of the bodies the feature and page routes read (issue #35, STYLE §9): each field's type and bound next
 * to its reader, each refusal a 400 naming the field (`name`, `rule.selector`, `rule.page`, `rule.url`, a feature's
 * `eventProperties[i].name`: readEventProperties). Bodies are
 * objects of known fields only. A selector must parse and be one the stored element path can answer
 * (compileSelector); a URL rule must compile (compileUrlRule). That a feature's page exists is the store's to say.
 */
import { HttpError } from '../HttpError';
import { textFault } from '../ingest/textFault';
import { compileSelector, MAX_SELECTOR_LENGTH } from './compileSelector';
import { compileUrlRule, MAX_URL_RULE_LENGTH } from './compileUrlRule';
import type { FeatureRule, PageRule } from './createRuleStore';
import { readEventProperties } from './readEventProperties';
import type { FeatureEventProperty } from '../../shared/api/rules';
import { CONTROL_CHARACTERS } from '../controlCharacters';

/** The longest name of a feature or a page, in characters. */
export const MAX_RULE_NAME_LENGTH = 200;
/** The longest page id a feature's rule may name (ids are UUIDs; the path parameter's own bound is 100). */
const MAX_PAGE_ID_LENGTH = 100;

/** What a POST (all fields) or a PATCH (some) gives. */
export interface RuleChange<R> {
  name?: string;
  rule?: R;
}

/** A name: trimmed, 1 to 200 characters, no control characters. */
export function readRuleName(value: unknown): string {
  const refusal = `name must be text of 1 to ${MAX_RULE_NAME_LENGTH} characters without control characters or line breaks`;
  if (typeof value !== 'string' || value.length > MAX_RULE_NAME_LENGTH * 4) throw new HttpError(400, refusal, 'name');
  const name = value.trim();
  if (!name || [...name].length > MAX_RULE_NAME_LENGTH || CONTROL_CHARACTERS.test(name)) throw new HttpError(400, refusal, 'name');
  return name;
}

/**
 * `value` (the body, or its `rule`) as an object of the `allowed` fields only; an unknown field is named, cut to 40
 * characters (an attacker's 100 KB key is not echoed).
 */
function readObject(value: unknown, where: 'body' | 'rule', allowed: readonly string[], example: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, `${where === 'body' ? 'the body' : 'rule'} must be a JSON object: ${example}`, where);
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !allowed.includes(key))?.slice(0, 40);
  if (unknown !== undefined) {
    const field = where === 'body' ? unknown : `rule.${unknown}`;
    throw new HttpError(400, `unknown field ${JSON.stringify(field)} (known: ${allowed.map((k) => (where === 'body' ? k : `rule.${k}`)).join(', ')})`, field);
  }
  return record;
}

/** Text of at most `max` characters that the database can keep, trimmed; a 400 naming `field` otherwise. */
export function readRuleText(value: unknown, field: string, max: number, what: string): string {
  if (typeof value !== 'string' || value.length > max * 2) throw new HttpError(400, `${field} must be ${what}: text of 1 to ${max} characters`, field);
  const text = value.trim();
  if (!text || text.length > max) throw new HttpError(400, `${field} must be ${what}: text of 1 to ${max} characters`, field);
  const fault = textFault(text);
  if (fault) throw new HttpError(400, `${field} is not valid text: it ${fault}`, field);
  return text;
}

const FEATURE_EXAMPLE = '{ "name": "Export", "rule": { "selector": "button.export", "page": "<a page id>" } }';
const PAGE_EXAMPLE = '{ "name": "Reports", "rule": { "url": "//*/reports/:id" } }';

/** What a feature's POST or PATCH gives: `eventProperties` null clears them. */
export interface FeatureChange extends RuleChange<FeatureRule> {
  eventProperties?: FeatureEventProperty[] | null;
}

/**
 * A feature's body: all of it (`partial` false, POST; `eventProperties` optional there too) or at least one field
 * (PATCH).
 */
export function readFeatureBody(body: unknown, partial: boolean): FeatureChange {
  const fields = readObject(body, 'body', ['name', 'rule', 'eventProperties'], FEATURE_EXAMPLE);
  const change: FeatureChange = {};
  if (fields.name !== undefined || !partial) change.name = readRuleName(fields.name);
  if (fields.rule !== undefined || !partial) {
    const rule = readObject(fields.rule, 'rule', ['selector', 'page'], FEATURE_EXAMPLE);
    const selector = readRuleText(rule.selector, 'rule.selector', MAX_SELECTOR_LENGTH, 'a CSS selector');
    const compiled = compileSelector(selector);
    if ('problem' in compiled) throw new HttpError(400, `rule.selector ${compiled.problem}`, 'rule.selector');
    // null or absent: on every page.
    const page = rule.page === undefined || rule.page === null ? undefined : readRuleText(rule.page, 'rule.page', MAX_PAGE_ID_LENGTH, 'the id of one of the app\'s pages');
    change.rule = { selector, ...(page === undefined ? {} : { page }) };
  }
  if (fields.eventProperties !== undefined) change.eventProperties = readEventProperties(fields.eventProperties) ?? null;
  if (partial && !change.name && !change.rule && change.eventProperties === undefined) {
    throw new HttpError(400, `nothing to change: give name, rule, eventProperties or some of them: ${FEATURE_EXAMPLE}`, 'body');
  }
  return change;
}

/** A page's body: all of it (`partial` false, POST) or at least one field (PATCH). */
export function readPageBody(body: unknown, partial: boolean): RuleChange<PageRule> {
  const fields = readObject(body, 'body', ['name', 'rule'], PAGE_EXAMPLE);
  const change: RuleChange<PageRule> = {};
  if (fields.name !== undefined || !partial) change.name = readRuleName(fields.name);
  if (fields.rule !== undefined || !partial) {
    const rule = readObject(fields.rule, 'rule', ['url'], PAGE_EXAMPLE);
    const url = readRuleText(rule.url, 'rule.url', MAX_URL_RULE_LENGTH, 'a URL rule such as //*/reports/:id');
    const compiled = compileUrlRule(url);
    if ('problem' in compiled) throw new HttpError(400, `rule.url ${compiled.problem}`, 'rule.url');
    change.rule = { url };
  }
  if (partial && !change.name && !change.rule) throw new HttpError(400, `nothing to change: give name, rule or both: ${PAGE_EXAMPLE}`, 'body');
  return change;
}
