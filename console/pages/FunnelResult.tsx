/**
 * A funnel's answer (issue #35): a bar per step (its width the share of step 1 that reached it) with the count, the
 * conversion from the step before and from step 1, and the median time from the step before; under each step after
 * the first, who dropped there, each a link to the visitor's (account's) page with their timeline and recordings;
 * then the breakdown, a row per value with each step's count and the overall conversion.
 */
import { Link } from 'react-router';
import { formatCount, formatCounted, formatDuration, formatPercent as percent } from '../format';
import type { FunnelAnswer, FunnelStepAnswer } from '../types';

/** Props of {@link FunnelResult}. */
export interface FunnelResultProps {
  apiKey: string;
  answer: FunnelAnswer;
  /** Each step's name, in order. */
  names: string[];
}

const countOf = (step: FunnelStepAnswer) => step.visitors ?? step.accounts ?? 0;

/** The steps, the dropped lists and the breakdown. */
export function FunnelResult({ apiKey, answer, names }: FunnelResultProps) {
  const unit = answer.by;
  const people = `${unit === 'visitor' ? 'visitors' : 'accounts'}`;
  const pathOf = (id: string) => `/apps/${encodeURIComponent(apiKey)}/${people}/${encodeURIComponent(id)}`;
  return (
    <>
      <section className="card" aria-label="Funnel steps">
        <h2>
          {formatCounted(countOf(answer.steps[0]!), unit)} entered; {percent(answer.overall)} reached the last step
        </h2>
        <ol className="funnel-steps">
          {answer.steps.map((step, k) => {
            const count = countOf(step);
            const lost = k === 0 ? 0 : countOf(answer.steps[k - 1]!) - count;
            return (
              <li key={k} aria-label={`Step ${k + 1}`}>
                <div className="funnel-step-head">
                  <span className="funnel-step-name">
                    {k + 1}. {names[k]}
                  </span>
                  <span className="funnel-step-count">{formatCount(count)}</span>
                </div>
                <div className="funnel-track">
                  <span className="funnel-bar" style={{ width: `${step.overall * 100}%` }} />
                </div>
                {k > 0 && (
                  <p className="muted funnel-step-figures">
                    {percent(step.conversion)} of step {k} · {percent(step.overall)} of step 1
                    {step.medianMsFromPrevious !== null && <> · median {formatDuration(step.medianMsFromPrevious)} from step {k}</>}
                  </p>
                )}
                {lost > 0 && (
                  <details className="funnel-dropped">
                    <summary>{formatCounted(lost, unit)} dropped here</summary>
                    <ul aria-label={`Dropped at step ${k + 1}`}>
                      {(step.dropped ?? []).map((id) => (
                        <li key={id}>
                          <Link to={pathOf(id)}>{id}</Link>
                        </li>
                      ))}
                      {lost > (step.dropped?.length ?? 0) && <li className="muted">and {formatCount(lost - (step.dropped?.length ?? 0))} more</li>}
                    </ul>
                  </details>
                )}
              </li>
            );
          })}
        </ol>
      </section>
      {answer.breakdown && (
        <section className="card" aria-label="Breakdown">
          <h2>By {answer.breakdown.field}</h2>
          <table className="table" aria-label={`By ${answer.breakdown.field}`}>
            <thead>
              <tr>
                <th>{answer.breakdown.field}</th>
                {names.map((name, k) => (
                  <th key={k} className="num">
                    {k + 1}. {name}
                  </th>
                ))}
                <th className="num">Overall</th>
              </tr>
            </thead>
            <tbody>
              {answer.breakdown.values.map((value) => (
                <tr key={value.value} aria-label={value.value}>
                  <td>{value.value}</td>
                  {value.steps.map((step, k) => (
                    <td key={k} className="num">
                      {formatCount(countOf(step))}
                    </td>
                  ))}
                  <td className="num">{percent(value.overall)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
