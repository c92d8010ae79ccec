/**
 * Who sees the guide (issue #15 targeting, "segments"): conditions on the visitor's and account's metadata and
 * ids that the collector judges on each guide.json request; every condition must hold. Each rule says what is
 * wrong with it until it can be saved, and the whole audience is summed up in words. Mapping: designerAudience.ts.
 */
import {
  AUDIENCE_OPERATORS,
  AUDIENCE_SOURCES,
  describeAudience,
  isMetadataSource,
  newAudienceRule,
  repeatedPaths,
  ruleProblem,
  type AudienceOperator,
  type AudienceRule,
  type AudienceSource,
  type AudienceValueType,
} from './designerAudience';
import { replaceAt } from './listEdits';

export function AudienceEditor({ rules, onChange }: { rules: AudienceRule[]; onChange(next: AudienceRule[]): void }) {
  const set = (i: number, next: AudienceRule | null) => onChange(replaceAt(rules, i, next));
  const repeated = repeatedPaths(rules);
  return (
    <fieldset>
      <legend>Audience</legend>
      {rules.map((rule, i) => {
        const problem = ruleProblem(rule);
        return (
          <div className="rule" key={i} data-testid="audience-rule">
            <div className="row">
              <label>
                Condition {i + 1}
                <select value={rule.source} onChange={(e) => set(i, { ...rule, source: e.target.value as AudienceSource })}>
                  {AUDIENCE_SOURCES.map((s) => (
                    <option key={s.source} value={s.source}>
                      {s.label}
                    </option>
                  ))}
                </select>
              </label>
              {isMetadataSource(rule.source) && (
                <label>
                  Field
                  <input value={rule.field} placeholder="role" spellCheck={false} onChange={(e) => set(i, { ...rule, field: e.target.value })} />
                </label>
              )}
              <button type="button" className="icon" aria-label={`Remove condition ${i + 1}`} onClick={() => set(i, null)}>
                ✕
              </button>
            </div>
            <div className="row">
              <label>
                Test
                <select value={rule.operator} onChange={(e) => set(i, { ...rule, operator: e.target.value as AudienceOperator })}>
                  {AUDIENCE_OPERATORS.map((o) => (
                    <option key={o.operator} value={o.operator}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Compared as
                <select value={rule.valueType} onChange={(e) => set(i, { ...rule, valueType: e.target.value as AudienceValueType })}>
                  <option value="text">text</option>
                  <option value="number">number</option>
                  <option value="boolean">true / false</option>
                </select>
              </label>
            </div>
            <label>
              {rule.operator === 'in' ? 'Values (separated by commas)' : 'Value'}
              <input value={rule.value} spellCheck={false} onChange={(e) => set(i, { ...rule, value: e.target.value })} />
            </label>
            {problem && <p className="warn">{problem} This condition is not saved until then.</p>}
          </div>
        );
      })}
      <button type="button" onClick={() => onChange([...rules, newAudienceRule()])}>
        Add a condition
      </button>
      {repeated.length > 0 && <p className="warn">Two conditions test {repeated.join(', ')}: only the last one is kept.</p>}
      <p className="muted" data-testid="audience-summary">
        {describeAudience(rules)} The collector decides on each guide load, from the metadata the page passes to initialize.
      </p>
    </fieldset>
  );
}
