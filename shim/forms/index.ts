/**
 * Entry of the form-validation chunk (dist/agent/waymark.forms.js; analytics §2, §3, §5): imported by the guides
 * chunk only when guide.json's settings name form fields to validate. Each load hands the fields over again
 * (`set`); the fields on this page (context.url matched against its address) are watched until the next load.
 */
import { checkFormFields, type FormField } from '../../shared/forms/formValidation';
import type { LogLevel } from '../../shared/protocol';
import { createFieldWatch, type FieldWatch } from './createFieldWatch';

export interface FormValidation {
  /** guide.json's `settings.formValidation.fields` of this load (unchecked), or nothing: what to validate now. */
  set(fields: unknown): void;
  stop(): void;
}

export function startFormValidation(log: (level: LogLevel, message: string) => void): FormValidation {
  let watch: FieldWatch | null = null;
  let last = '';
  return {
    set(raw) {
      const checked = checkFormFields(raw ?? []);
      if ('problem' in checked) {
        // Bad settings validate nothing rather than half of it; the console refuses them, an old server may not.
        log('warn', `form validation is off: guide.json settings.formValidation.${checked.problem}`);
      }
      const fields = ('fields' in checked ? checked.fields : []).filter((f) => {
        if (isSelector(f.context.selector)) return onThisPage(f, location.href);
        log('warn', `form validation: field ${f.id} is skipped, its selector is not CSS: ${f.context.selector}`);
        return false;
      });
      const key = JSON.stringify(fields);
      if (key === last) return;
      last = key;
      watch?.stop();
      watch = fields.length ? createFieldWatch(fields) : null;
      if (fields.length) log('debug', `form validation: ${fields.map((f) => f.id).join(', ')}`);
    },
    stop() {
      watch?.stop();
      watch = null;
      last = '';
    },
  };
}

/** Whether `field` is on the page at `href`: its context's url, a regular expression, matches (or it has none). */
export function onThisPage(field: FormField, href: string): boolean {
  return field.context.url === undefined || new RegExp(field.context.url).test(href);
}

function isSelector(selector: string): boolean {
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}
