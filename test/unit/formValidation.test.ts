/**
 * analytics §2, §3, §5 form validation: the six rule types with the spec's date formats, years and phone rule,
 * a field's validity (unknown until something is typed), and the check of fields the console stores and the
 * agent reads (shared/forms/formValidation.ts).
 */
import { describe, expect, it } from 'vitest';
import { FORM_VALIDATION_DEBOUNCE_MS, FORM_VALIDATION_TOOLTIP_WIDTH_PX } from '../../shared/constants';
import { checkFormFields, DATE_FORMATS, DEFAULT_DATE_FORMAT, isDate, ruleHolds, validityOf, type FormField, type FormRule } from '../../shared/forms/formValidation';
import { checkSettings } from '../../server/settings/checkSettings';

const rule = (type: FormRule['type'], options?: FormRule['options']): FormRule => ({ type, id: `${type}-1`, ruleText: `a ${type}`, ...(options ? { options } : {}) });

describe('analytics §5 form-validation rule types', () => {
  it('has the spec constants: 100 ms debounce, 300 px tooltip, five date formats with MM/DD/YYYY by default', () => {
    expect(FORM_VALIDATION_DEBOUNCE_MS).toBe(100);
    expect(FORM_VALIDATION_TOOLTIP_WIDTH_PX).toBe(300);
    expect(DATE_FORMATS).toEqual(['MM-DD-YYYY', 'DD-MM-YYYY', 'MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD']);
    expect(DEFAULT_DATE_FORMAT).toBe('MM/DD/YYYY');
  });

  it('email', () => {
    for (const ok of ['ana@example.com', 'a.b+tag@mail.example.co.uk']) expect(ruleHolds(rule('email'), ok)).toBe(true);
    for (const bad of ['ana', 'ana@', 'ana@example', '@example.com', 'an a@example.com', 'ana@example..com']) expect(ruleHolds(rule('email'), bad)).toBe(false);
  });

  it('phone: an optional 1-2 digit country prefix, then 3-3-4 digits', () => {
    for (const ok of ['555-123-4567', '(555) 123-4567', '555.123.4567', '5551234567', '+1 555 123 4567', '44 555 123 4567', '+44-555-123-4567']) {
      expect(ruleHolds(rule('phone'), ok)).toBe(true);
    }
    for (const bad of ['555-1234', '123 555 123 4567', '555-123-45678', '+123 555 123 4567', 'call me']) expect(ruleHolds(rule('phone'), bad)).toBe(false);
  });

  it('date: each format, real calendar days, years 1900-2099; MM/DD/YYYY when the rule names none', () => {
    expect(ruleHolds(rule('date'), '12/31/2024')).toBe(true);
    expect(ruleHolds(rule('date'), '31/12/2024')).toBe(false);
    expect(isDate('31-12-2024', 'DD-MM-YYYY')).toBe(true);
    expect(isDate('12-31-2024', 'MM-DD-YYYY')).toBe(true);
    expect(isDate('31/12/2024', 'DD/MM/YYYY')).toBe(true);
    expect(isDate('2024-02-29', 'YYYY-MM-DD')).toBe(true);
    expect(isDate('2023-02-29', 'YYYY-MM-DD')).toBe(false);
    expect(isDate('2024-04-31', 'YYYY-MM-DD')).toBe(false);
    expect(isDate('1900-01-01', 'YYYY-MM-DD')).toBe(true);
    expect(isDate('2099-12-31', 'YYYY-MM-DD')).toBe(true);
    expect(isDate('1899-12-31', 'YYYY-MM-DD')).toBe(false);
    expect(isDate('2100-01-01', 'YYYY-MM-DD')).toBe(false);
    // The separator is the format's: a date written with the other one is not in that format.
    expect(isDate('2024/01/01', 'YYYY-MM-DD')).toBe(false);
    expect(isDate('1/2/2024', 'MM/DD/YYYY')).toBe(true);
  });

  it('url: must start with http or https', () => {
    for (const ok of ['https://example.com', 'http://app.example.com:8080/a?b=1#c', 'HTTPS://example.com/pricing', 'http://localhost:3000']) expect(ruleHolds(rule('url'), ok)).toBe(true);
    for (const bad of ['example', 'https://', 'ftp://example.com', 'http://exa mple.com']) expect(ruleHolds(rule('url'), bad)).toBe(false);
  });

  it('url: an address without its scheme is refused (example.com, localhost:3000, //example.com)', () => {
    for (const bad of ['example.com', 'example.com/pricing', 'localhost:3000', 'www.example.com', '//example.com', 'httpexample.com']) expect(ruleHolds(rule('url'), bad)).toBe(false);
  });

  it('number: numeric, within min and max when set', () => {
    expect(ruleHolds(rule('number'), '-12')).toBe(true);
    expect(ruleHolds(rule('number'), '+7')).toBe(true);
    expect(ruleHolds(rule('number'), '12abc')).toBe(false);
    expect(ruleHolds(rule('number'), '-')).toBe(false);
    expect(ruleHolds(rule('number', { min: 1, max: 10 }), '10')).toBe(true);
    expect(ruleHolds(rule('number', { min: 1, max: 10 }), '11')).toBe(false);
    expect(ruleHolds(rule('number', { min: 1 }), '0')).toBe(false);
  });

  it('number: decimals only if the rule allows them (options.decimals)', () => {
    for (const value of ['12.5', '-0.5', '.5', '3.']) expect(ruleHolds(rule('number'), value)).toBe(false);
    expect(ruleHolds(rule('number', { decimals: false }), '12.5')).toBe(false);
    for (const value of ['12.5', '-0.5', '.5', '12']) expect(ruleHolds(rule('number', { decimals: true }), value)).toBe(true);
    expect(ruleHolds(rule('number', { decimals: true, min: 0, max: 1 }), '0.75')).toBe(true);
    expect(ruleHolds(rule('number', { decimals: true, min: 0, max: 1 }), '1.5')).toBe(false);
  });

  it('number: exponent notation is refused, decimals allowed or not', () => {
    for (const value of ['1e1', '1E3', '2.5e-3', '1e+2']) {
      expect(ruleHolds(rule('number'), value)).toBe(false);
      expect(ruleHolds(rule('number', { decimals: true }), value)).toBe(false);
    }
  });

  it('characterLength counts characters as people do (an emoji is one)', () => {
    const r = rule('characterLength', { min: 2, max: 4 });
    expect(ruleHolds(r, 'ab')).toBe(true);
    expect(ruleHolds(r, 'abcde')).toBe(false);
    expect(ruleHolds(r, 'a')).toBe(false);
    expect(ruleHolds(r, '👍👍👍👍')).toBe(true);
  });
});

describe('analytics §3, §4 a field\'s validity', () => {
  const field: FormField = { id: 'work-email', context: { selector: '#email' }, rules: [rule('email'), { ...rule('characterLength', { max: 20 }), id: 'short' }] };

  it('is unknown (null) while nothing is typed, then valid, or invalid with the rules broken in order', () => {
    expect(validityOf(field, '   ')).toEqual({ isValid: null, broken: [] });
    expect(validityOf(field, 'ana@example.com')).toEqual({ isValid: true, broken: [] });
    expect(validityOf(field, 'a-very-long-name-without-at').broken.map((r) => r.id)).toEqual(['email-1', 'short']);
    expect(validityOf(field, 'a-very-long-name@example.com')).toMatchObject({ isValid: false, broken: [{ id: 'short' }] });
  });
});

describe('checking fields (console settings, the agent)', () => {
  const good = [{ id: 'f1', context: { selector: 'input[name=email]', url: '/signup' }, rules: [{ type: 'date', id: 'r1', ruleText: 'A date like 31-12-2024', options: { format: 'DD-MM-YYYY' } }] }];

  it('keeps good fields as given, without unknown keys', () => {
    expect(checkFormFields(good)).toEqual({ fields: good });
    expect(checkFormFields([{ ...good[0], extra: 1 }])).toEqual({ fields: good });
  });

  it('keeps a number rule\'s decimals switch (true or false)', () => {
    for (const decimals of [true, false]) {
      const fields = [{ ...good[0], rules: [{ type: 'number', id: 'r', ruleText: 'A price', options: { decimals, min: 0 } }] }];
      expect(checkFormFields(fields)).toEqual({ fields });
    }
  });

  it('names the first problem and where it is', () => {
    const cases: Array<[unknown, string, string]> = [
      [{}, 'fields must be an array of {id, context, rules}', 'fields'],
      [[{ ...good[0], id: '' }], 'fields[0].id must be a non-empty string', 'fields[0].id'],
      [[good[0], good[0]], 'fields[1].id "f1" is used by another field', 'fields[1].id'],
      [[{ ...good[0], context: {} }], "fields[0].context.selector must be a CSS selector of the field's input", 'fields[0].context.selector'],
      [[{ ...good[0], context: { selector: 'x', url: '(' } }], 'fields[0].context.url must be a regular expression of the pages the field is on', 'fields[0].context.url'],
      [[{ ...good[0], rules: [] }], 'fields[0].rules must be a non-empty array', 'fields[0].rules'],
      [[{ ...good[0], rules: [{ type: 'zip', id: 'r', ruleText: 't' }] }], 'fields[0].rules[0].type must be one of email, phone, date, url, number, characterLength', 'fields[0].rules[0].type'],
      [[{ ...good[0], rules: [{ type: 'email', id: 'r', ruleText: ' ' }] }], 'fields[0].rules[0].ruleText must say what the visitor should type', 'fields[0].rules[0].ruleText'],
      [[{ ...good[0], rules: [{ type: 'date', id: 'r', ruleText: 't', options: { format: 'YYYY/MM/DD' } }] }], 'fields[0].rules[0].options.format must be one of MM-DD-YYYY, DD-MM-YYYY, MM/DD/YYYY, DD/MM/YYYY, YYYY-MM-DD (date rules only)', 'fields[0].rules[0].options.format'],
      [[{ ...good[0], rules: [{ type: 'email', id: 'r', ruleText: 't', options: { min: 1 } }] }], 'fields[0].rules[0].options.min applies to number and characterLength rules only', 'fields[0].rules[0].options.min'],
      [[{ ...good[0], rules: [{ type: 'characterLength', id: 'r', ruleText: 't', options: { max: 2.5 } }] }], 'fields[0].rules[0].options.max must be a whole number >= 0', 'fields[0].rules[0].options.max'],
      [[{ ...good[0], rules: [{ type: 'number', id: 'r', ruleText: 't', options: { min: 5, max: 1 } }] }], 'fields[0].rules[0].options.min must not be above max', 'fields[0].rules[0].options.min'],
      [[{ ...good[0], rules: [{ type: 'number', id: 'r', ruleText: 't', options: { decimals: 'yes' } }] }], 'fields[0].rules[0].options.decimals must be true or false (number rules only)', 'fields[0].rules[0].options.decimals'],
      [[{ ...good[0], rules: [{ type: 'characterLength', id: 'r', ruleText: 't', options: { decimals: true } }] }], 'fields[0].rules[0].options.decimals must be true or false (number rules only)', 'fields[0].rules[0].options.decimals'],
    ];
    for (const [raw, problem, field] of cases) expect(checkFormFields(raw)).toEqual({ problem, field });
  });

  it('the app settings take formValidation {enabled, fields} and guideMarkdown, and say what is wrong', () => {
    expect(checkSettings({ formValidation: { enabled: true, fields: good }, guideMarkdown: false })).toBeNull();
    expect(checkSettings({ formValidation: { enabled: 'yes', fields: [] } })).toEqual({ error: 'formValidation.enabled must be true or false', field: 'formValidation.enabled' });
    expect(checkSettings({ formValidation: { enabled: true, fields: [{ id: 'x' }] } })).toEqual({
      error: "formValidation.fields[0].context.selector must be a CSS selector of the field's input",
      field: 'formValidation.fields[0].context.selector',
    });
    expect(checkSettings({ guideMarkdown: 'on' })).toEqual({ error: 'guideMarkdown must be true or false', field: 'guideMarkdown' });
  });
});
