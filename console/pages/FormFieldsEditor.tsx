/**
 * The Settings page's form validation (analytics §2, §3, §5): the fields the agent validates on the app's pages.
 * Each field is found by a CSS selector (checked here, in the browser, before it is saved), optionally only on
 * pages whose URL matches a regular expression, and has rules of the six types with the text the visitor reads
 * when a value breaks one. A date rule picks one of the spec's formats; number and length rules take bounds, and a
 * number rule takes decimals only when its box is ticked (analytics §5 "decimals only if allowed").
 */
import { useFieldArray, useFormContext } from 'react-hook-form';
import { DATE_FORMATS, DEFAULT_DATE_FORMAT, FORM_RULE_TYPES, type DateFormat, type FormField, type FormRule, type FormRuleType } from '../../shared/forms/formValidation';
import { isSelector } from '../isSelector';

/** One rule as the form holds it: every input is text. */
export interface RuleForm {
  id: string;
  type: FormRuleType;
  ruleText: string;
  format: string;
  min: string;
  max: string;
  /** A number rule: values with a fractional part pass. */
  decimals: boolean;
}

export interface FieldForm {
  id: string;
  selector: string;
  url: string;
  rules: RuleForm[];
}

/** What part of the Settings form this editor owns. */
export interface FormFieldsForm {
  formValidationEnabled: boolean;
  formFields: FieldForm[];
}

const RULE_LABELS: Record<FormRuleType, string> = {
  email: 'Email address',
  phone: 'Phone number',
  date: 'Date',
  url: 'Web address',
  number: 'Number',
  characterLength: 'Length',
};

const newId = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
const newRule = (): RuleForm => ({ id: newId('rule'), type: 'email', ruleText: '', format: DEFAULT_DATE_FORMAT, min: '', max: '', decimals: false });
const newField = (): FieldForm => ({ id: newId('field'), selector: '', url: '', rules: [newRule()] });

export const formFieldsOf = (fields: FormField[]): FieldForm[] =>
  fields.map((f) => ({
    id: f.id,
    selector: f.context.selector,
    url: f.context.url ?? '',
    rules: f.rules.map((r) => ({
      id: r.id,
      type: r.type,
      ruleText: r.ruleText,
      format: r.options?.format ?? DEFAULT_DATE_FORMAT,
      min: r.options?.min === undefined ? '' : String(r.options.min),
      max: r.options?.max === undefined ? '' : String(r.options.max),
      decimals: r.options?.decimals === true,
    })),
  }));

/** The fields as the settings API takes them; bounds only where the rule type has them. */
export function fieldsOfForm(fields: FieldForm[]): FormField[] {
  return fields.map((f) => ({
    id: f.id.trim(),
    context: { selector: f.selector.trim(), ...(f.url.trim() ? { url: f.url.trim() } : {}) },
    rules: f.rules.map((r): FormRule => {
      const options: FormRule['options'] = {};
      if (r.type === 'date') options.format = r.format as DateFormat;
      if (r.type === 'number' || r.type === 'characterLength') {
        if (r.min.trim()) options.min = Number(r.min);
        if (r.max.trim()) options.max = Number(r.max);
      }
      if (r.type === 'number' && r.decimals) options.decimals = true;
      return { type: r.type, id: r.id, ruleText: r.ruleText.trim(), ...(Object.keys(options).length ? { options } : {}) };
    }),
  }));
}

/** The first field whose selector the browser cannot read, as [index, message]. */
export function badSelector(fields: FieldForm[]): [number, string] | null {
  const i = fields.findIndex((f) => !isSelector(f.selector));
  return i < 0 ? null : [i, `"${fields[i]!.selector}" is not a CSS selector`];
}

/** The editor; `errorAt(prefix)` is the server's message when its field starts with `prefix`. */
export function FormFieldsEditor({ errorAt }: { errorAt(prefix: string): string | undefined }) {
  const form = useFormContext<FormFieldsForm>();
  const fields = useFieldArray({ control: form.control, name: 'formFields' });
  return (
    <section className="card form" aria-label="Form validation">
      <h2>Form validation</h2>
      <label className="check">
        <input type="checkbox" {...form.register('formValidationEnabled')} /> Validate these fields on the app's pages
      </label>
      {fields.fields.map((field, i) => (
        <fieldset key={field.id} className="step" aria-label={`Field ${i + 1}`}>
          <legend>Field {i + 1}</legend>
          <div className="row">
            <label className="field">
              <span>Name</span>
              <input {...form.register(`formFields.${i}.id`)} />
            </label>
            <label className="field">
              <span>Input (CSS selector)</span>
              <input {...form.register(`formFields.${i}.selector`)} placeholder="input[name=email]" />
            </label>
            <label className="field">
              <span>Only on pages matching (regular expression, optional)</span>
              <input {...form.register(`formFields.${i}.url`)} placeholder="/signup" />
            </label>
          </div>
          {form.formState.errors.formFields?.[i]?.selector?.message && (
            <p className="field-error" role="alert">{form.formState.errors.formFields[i]!.selector!.message}</p>
          )}
          <RulesEditor index={i} />
          {errorAt(`formValidation.fields[${i}]`) && <p className="field-error" role="alert">{errorAt(`formValidation.fields[${i}]`)}</p>}
          <div className="toolbar">
            <button type="button" onClick={() => fields.remove(i)}>Remove field</button>
          </div>
        </fieldset>
      ))}
      {errorAt('formValidation.enabled') && <p className="field-error" role="alert">{errorAt('formValidation.enabled')}</p>}
      <div className="toolbar">
        <button type="button" onClick={() => fields.append(newField())}>Add a field</button>
      </div>
    </section>
  );
}

function RulesEditor({ index }: { index: number }) {
  const form = useFormContext<FormFieldsForm>();
  const rules = useFieldArray({ control: form.control, name: `formFields.${index}.rules` });
  const types = form.watch(`formFields.${index}.rules`);
  return (
    <>
      {rules.fields.map((rule, j) => {
        const type = types[j]?.type;
        const at = `formFields.${index}.rules.${j}` as const;
        return (
          <div className="row" key={rule.id} aria-label={`Rule ${j + 1}`}>
            <label className="field">
              <span>Rule</span>
              <select {...form.register(`${at}.type`)}>
                {FORM_RULE_TYPES.map((t) => <option key={t} value={t}>{RULE_LABELS[t]}</option>)}
              </select>
            </label>
            {type === 'date' && (
              <label className="field">
                <span>Format</span>
                <select {...form.register(`${at}.format`)}>
                  {DATE_FORMATS.map((f) => <option key={f} value={f}>{f}</option>)}
                </select>
              </label>
            )}
            {(type === 'number' || type === 'characterLength') && (
              <>
                <label className="field">
                  <span>{type === 'number' ? 'Lowest' : 'Fewest characters'}</span>
                  <input type="number" {...form.register(`${at}.min`)} />
                </label>
                <label className="field">
                  <span>{type === 'number' ? 'Highest' : 'Most characters'}</span>
                  <input type="number" {...form.register(`${at}.max`)} />
                </label>
                {type === 'number' && (
                  <label className="check">
                    <input type="checkbox" {...form.register(`${at}.decimals`)} /> Decimals allowed
                  </label>
                )}
              </>
            )}
            <label className="field">
              <span>What the visitor reads when it breaks</span>
              <input {...form.register(`${at}.ruleText`)} placeholder="Enter your work email" />
            </label>
            <button type="button" aria-label={`Remove rule ${j + 1}`} disabled={rules.fields.length === 1} onClick={() => rules.remove(j)}>✕</button>
          </div>
        );
      })}
      <div className="toolbar">
        <button type="button" onClick={() => rules.append(newRule())}>Add a rule</button>
      </div>
    </>
  );
}
