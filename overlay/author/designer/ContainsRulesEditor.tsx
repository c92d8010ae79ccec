/**
 * A tooltip's element contains rules (issue #15; guides §3 elementContainsRulesList, §5 "all rules must pass;
 * number rules fail on non-numeric values"): the step shows only while its element's text passes every rule.
 * Under the rules, live, the verdict of the agent's own judge (matchesContainsRules) on the element as it is now.
 */
import { useEffect, useState } from 'react';
import { matchesContainsRules } from '../../../shared/eligibility/matchesContainsRules';
import type { ElementContainsRule } from '../../../shared/guides/guides';
import { replaceAt } from './listEdits';

const MATCH_TYPES: Array<{ type: ElementContainsRule['matchType']; label: string }> = [
  { type: 'contains', label: 'contains' },
  { type: 'notContains', label: 'does not contain' },
  { type: 'equal', label: 'is' },
  { type: 'notEqual', label: 'is not' },
  { type: 'greaterThan', label: 'is greater than' },
  { type: 'lessThan', label: 'is less than' },
];

interface Props {
  rules: ElementContainsRule[];
  elementPathRule: string;
  /** The agent's element lookup (shadow roots included), for the live verdict. */
  query(rule: string): Element | null;
  onChange(next: ElementContainsRule[]): void;
}

export function ContainsRulesEditor({ rules, elementPathRule, query, onChange }: Props) {
  const set = (i: number, next: ElementContainsRule | null) => onChange(replaceAt(rules, i, next));
  const verdict = useVerdict(rules, elementPathRule, query);
  return (
    <fieldset>
      <legend>Show only when the element's text…</legend>
      {rules.map((rule, i) => (
        <div className="rule" key={i} data-testid="contains-rule">
          <div className="row">
            <label>
              Rule {i + 1}
              <select value={rule.matchType} onChange={(e) => set(i, { ...rule, matchType: e.target.value as ElementContainsRule['matchType'] })}>
                {MATCH_TYPES.map((m) => (
                  <option key={m.type} value={m.type}>
                    {m.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Compared as
              <select value={rule.dataType ?? 'string'} onChange={(e) => set(i, { ...rule, dataType: e.target.value as 'string' | 'number' })}>
                <option value="string">text</option>
                <option value="number">number</option>
              </select>
            </label>
            <button type="button" className="icon" aria-label={`Remove rule ${i + 1}`} onClick={() => set(i, null)}>
              ✕
            </button>
          </div>
          <label>
            Value
            <input value={String(rule.matchValue)} onChange={(e) => set(i, { ...rule, matchValue: e.target.value })} />
          </label>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...rules, { matchType: 'contains', matchValue: '', dataType: 'string' }])}>
        Add a text rule
      </button>
      {verdict && (
        <p className={verdict.pass ? 'ok' : 'warn'} role="status" data-testid="contains-check">
          {verdict.pass ? 'The element passes now: the step would show' : `Not now: ${verdict.reason}`}
        </p>
      )}
    </fieldset>
  );
}

/** The agent's verdict on the element's text now, read again every second (the page changes under the designer). */
function useVerdict(rules: ElementContainsRule[], elementPathRule: string, query: (rule: string) => Element | null) {
  const [verdict, setVerdict] = useState<{ pass: boolean; reason: string } | null>(null);
  useEffect(() => {
    const read = () => {
      const written = rules.filter((r) => String(r.matchValue).trim() !== '');
      const el = written.length && elementPathRule.trim() ? safeQuery(query, elementPathRule.trim()) : null;
      setVerdict(el ? matchesContainsRules(written, el.textContent ?? '') : null);
    };
    read();
    const timer = setInterval(read, 1000);
    return () => clearInterval(timer);
  }, [rules, elementPathRule, query]);
  return verdict;
}

function safeQuery(query: (rule: string) => Element | null, rule: string): Element | null {
  try {
    return query(rule);
  } catch {
    return null;
  }
}
