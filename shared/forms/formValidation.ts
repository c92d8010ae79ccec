/**
 * Form validation (analytics §2, §3 "Form-validation field", §5 rule types, date formats and phone rule): the
 * fields an app validates, each with rules of six types, and whether a typed value passes them. A field is found
 * on the page by its context (a CSS selector, on pages whose URL matches an optional regular expression); its
 * validity is unknown (null) until the visitor has typed something, then valid or invalid. The fields come from
 * the app's settings (the console's Settings page), ride on guide.json's `settings.formValidation`, are checked
 * here by the server before they are stored and by the agent before it uses them. Pure.
 */

export const FORM_RULE_TYPES = ['email', 'phone', 'date', 'url', 'number', 'characterLength'] as const;
export type FormRuleType = (typeof FORM_RULE_TYPES)[number];

/** spec: analytics §5 — the date formats a date rule may ask for, and the one it asks for when it names none. */
export const DATE_FORMATS = ['MM-DD-YYYY', 'DD-MM-YYYY', 'MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const DEFAULT_DATE_FORMAT: DateFormat = 'MM/DD/YYYY';
/** spec: analytics §5 — the years a date rule accepts. */
export const DATE_YEARS = { min: 1900, max: 2099 } as const;

/** One rule of a field: what it checks, and the text the visitor reads when the value breaks it. */
export interface FormRule {
  type: FormRuleType;
  id: string;
  ruleText: string;
  /**
   * date: `format`; number: `min`/`max` (the value's bounds) and `decimals` (spec: analytics §5 "decimals only if
   * allowed": a value with a fractional part passes only when true; @default false); characterLength: `min`/`max`
   * (the length's).
   */
  options?: { format?: DateFormat; min?: number; max?: number; decimals?: boolean };
}

/** spec: analytics §3 — a form-validation field: id, context, rules, isValid. */
export interface FormField {
  id: string;
  /** Where the field is: inputs matching `selector`, on pages whose URL matches `url` (a regular expression) when set. */
  context: { selector: string; url?: string };
  rules: FormRule[];
}

/** spec: analytics §4 — a field's validity: unknown (null), valid (true) or invalid (false). */
export type FieldValidity = boolean | null;

/** A field as the agent reports it (`waymark.getFormValidationFields()`): its definition and its validity now. */
export interface FormFieldRecord extends FormField {
  isValid: FieldValidity;
}

/** What a typed value makes of a field: its validity and the rules it breaks, in the field's order. */
export function validityOf(field: FormField, value: string): { isValid: FieldValidity; broken: FormRule[] } {
  const text = value.trim();
  // Nothing typed yet is not invalid: the field stays gray until the visitor writes something.
  if (text === '') return { isValid: null, broken: [] };
  const broken = field.rules.filter((rule) => !ruleHolds(rule, text));
  return { isValid: broken.length === 0, broken };
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
// spec: analytics §5 — an optional country prefix of 1 or 2 digits, then 3, 3 and 4 digits; spaces, dots,
// dashes and parentheses around the area code are how people write them.
const PHONE = /^(\+?\d{1,2}[\s.-]?)?(\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}$/;
// spec: analytics §5 "URL must start with http or https": the scheme is required, then a host (localhost or a
// dotted name), an optional port, path, query and hash.
const WEB_URL = /^https?:\/\/(localhost|[a-z\d]([a-z\d-]*[a-z\d])?(\.[a-z\d]([a-z\d-]*[a-z\d])?)*\.[a-z]{2,})(:\d{1,5})?([/?#]\S*)?$/i;
// spec: analytics §5 "Number: non-empty, numeric ... decimals only if allowed": digits with an optional sign, and a
// fractional part only where the rule allows decimals. Exponent notation (1e3) is no number a visitor types.
const WHOLE_NUMBER = /^[-+]?\d+$/;
const DECIMAL_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)$/;

/** Whether `value` (trimmed, not empty) passes `rule`. */
export function ruleHolds(rule: FormRule, value: string): boolean {
  const { min, max } = rule.options ?? {};
  switch (rule.type) {
    case 'email':
      return EMAIL.test(value);
    case 'phone':
      return PHONE.test(value);
    case 'date':
      return isDate(value, rule.options?.format ?? DEFAULT_DATE_FORMAT);
    case 'url':
      return WEB_URL.test(value);
    case 'number': {
      if (!(rule.options?.decimals === true ? DECIMAL_NUMBER : WHOLE_NUMBER).test(value)) return false;
      const n = Number(value);
      return (min === undefined || n >= min) && (max === undefined || n <= max);
    }
    case 'characterLength': {
      // Characters as people count them: an emoji is one.
      const length = [...value].length;
      return (min === undefined || length >= min) && (max === undefined || length <= max);
    }
  }
}

/** A real calendar date written in `format`, its year within 1900-2099. */
export function isDate(value: string, format: DateFormat): boolean {
  const separator = format.includes('/') ? '/' : '-';
  const parts = value.split(separator);
  const order = format.split(separator);
  if (parts.length !== 3) return false;
  const at = (name: string) => parts[order.indexOf(name)];
  const [mm, dd, yyyy] = [at('MM'), at('DD'), at('YYYY')];
  if (!/^\d{1,2}$/.test(mm) || !/^\d{1,2}$/.test(dd) || !/^\d{4}$/.test(yyyy)) return false;
  const [month, day, year] = [Number(mm), Number(dd), Number(yyyy)];
  if (year < DATE_YEARS.min || year > DATE_YEARS.max || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The fields of `raw` (an array), or the first problem and where it is (`fields[2].rules[0].type`). */
export function checkFormFields(raw: unknown): { fields: FormField[] } | { problem: string; field: string } {
  if (!Array.isArray(raw)) return { problem: 'fields must be an array of {id, context, rules}', field: 'fields' };
  const ids = new Set<string>();
  const fields: FormField[] = [];
  for (const [i, item] of raw.entries()) {
    const at = `fields[${i}]`;
    if (!isObject(item)) return { problem: `${at} must be an object {id, context, rules}`, field: at };
    const { id, context, rules } = item;
    if (typeof id !== 'string' || !id.trim()) return { problem: `${at}.id must be a non-empty string`, field: `${at}.id` };
    if (ids.has(id)) return { problem: `${at}.id "${id}" is used by another field`, field: `${at}.id` };
    ids.add(id);
    if (!isObject(context) || typeof context.selector !== 'string' || !context.selector.trim()) {
      return { problem: `${at}.context.selector must be a CSS selector of the field's input`, field: `${at}.context.selector` };
    }
    if (context.url !== undefined && (typeof context.url !== 'string' || !isRegExp(context.url))) {
      return { problem: `${at}.context.url must be a regular expression of the pages the field is on`, field: `${at}.context.url` };
    }
    if (!Array.isArray(rules) || rules.length === 0) return { problem: `${at}.rules must be a non-empty array`, field: `${at}.rules` };
    const checked: FormRule[] = [];
    for (const [j, rule] of rules.entries()) {
      const problem = checkRule(rule, `${at}.rules[${j}]`);
      if (typeof problem !== 'object' || 'problem' in problem) return problem as { problem: string; field: string };
      checked.push(problem);
    }
    fields.push({ id, context: { selector: context.selector, ...(context.url !== undefined ? { url: context.url } : {}) }, rules: checked });
  }
  return { fields };
}

function checkRule(rule: unknown, at: string): FormRule | { problem: string; field: string } {
  if (!isObject(rule)) return { problem: `${at} must be an object {type, id, ruleText, options}`, field: at };
  const { type, id, ruleText, options } = rule;
  if (!FORM_RULE_TYPES.includes(type as FormRuleType)) {
    return { problem: `${at}.type must be one of ${FORM_RULE_TYPES.join(', ')}`, field: `${at}.type` };
  }
  if (typeof id !== 'string' || !id.trim()) return { problem: `${at}.id must be a non-empty string`, field: `${at}.id` };
  if (typeof ruleText !== 'string' || !ruleText.trim()) {
    return { problem: `${at}.ruleText must say what the visitor should type`, field: `${at}.ruleText` };
  }
  if (options !== undefined && !isObject(options)) return { problem: `${at}.options must be an object`, field: `${at}.options` };
  const { format, min, max, decimals } = (options ?? {}) as Record<string, unknown>;
  if (format !== undefined && (type !== 'date' || !DATE_FORMATS.includes(format as DateFormat))) {
    return { problem: `${at}.options.format must be one of ${DATE_FORMATS.join(', ')} (date rules only)`, field: `${at}.options.format` };
  }
  if (decimals !== undefined && (type !== 'number' || typeof decimals !== 'boolean')) {
    return { problem: `${at}.options.decimals must be true or false (number rules only)`, field: `${at}.options.decimals` };
  }
  for (const [name, bound] of [['min', min], ['max', max]] as const) {
    if (bound === undefined) continue;
    if (type !== 'number' && type !== 'characterLength') {
      return { problem: `${at}.options.${name} applies to number and characterLength rules only`, field: `${at}.options.${name}` };
    }
    if (typeof bound !== 'number' || !Number.isFinite(bound) || (type === 'characterLength' && (!Number.isInteger(bound) || bound < 0))) {
      return { problem: `${at}.options.${name} must be a ${type === 'number' ? 'number' : 'whole number >= 0'}`, field: `${at}.options.${name}` };
    }
  }
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    return { problem: `${at}.options.min must not be above max`, field: `${at}.options.min` };
  }
  const kept: FormRule['options'] = {};
  if (format !== undefined) kept.format = format as DateFormat;
  if (typeof min === 'number') kept.min = min;
  if (typeof max === 'number') kept.max = max;
  if (typeof decimals === 'boolean') kept.decimals = decimals;
  return { type: type as FormRuleType, id, ruleText, ...(Object.keys(kept).length ? { options: kept } : {}) };
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
