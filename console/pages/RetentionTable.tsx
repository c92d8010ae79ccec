/**
 * Retention's table (issue #35): a row per cohort (its week, its size), then the share of it back in week 0..N as a
 * percentage, the count in the cell's title, the cell shaded by the share (`--share`, read by styles.css); a week not
 * yet over for the whole cohort is blank. The first row is all cohorts together (the answer's `overall`).
 */
import type { CSSProperties } from 'react';
import { formatCount, formatCounted, formatPercent as percent } from '../format';
import type { RetentionAnswer } from '../types';

/** '2026-11-02': a cohort's Monday, in UTC as the server groups them. */
export function weekLabel(week: number): string {
  return new Date(week).toISOString().slice(0, 10);
}

/** One shaded cell; null: blank, the week is not over. */
function ShareCell({ share, title }: { share: number | null; title: string }) {
  if (share === null) return <td className="num retention-cell" title={title} />;
  // Dark text on light shades, light text on dark ones (the class), readable at either end.
  return (
    <td className={`num retention-cell${share >= 0.65 ? ' strong' : ''}`} style={{ '--share': share } as CSSProperties} title={title}>
      {percent(share)}
    </td>
  );
}

/** The table of an answer with at least one cohort. */
export function RetentionTable({ answer }: { answer: RetentionAnswer }) {
  const unit = answer.by;
  const weeks = Array.from({ length: answer.weeks + 1 }, (_, k) => k);
  const total = answer.cohorts.reduce((sum, c) => sum + c.size, 0);
  return (
    <table className="table retention" aria-label="Retention by cohort">
      <thead>
        <tr>
          <th>Cohort (week of first use)</th>
          <th className="num">{unit === 'visitor' ? 'Visitors' : 'Accounts'}</th>
          {weeks.map((k) => (
            <th key={k} className="num">
              Week {k}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr aria-label="All cohorts" className="retention-overall">
          <td>All cohorts</td>
          <td className="num">{formatCount(total)}</td>
          {answer.overall.map((o) => (
            <ShareCell
              key={o.week}
              share={o.share}
              title={o.share === null ? `week ${o.week} is not over for any cohort yet` : `week ${o.week}: ${percent(o.share)} over the ${formatCounted(o.cohorts, 'cohort')} it is over for`}
            />
          ))}
        </tr>
        {answer.cohorts.map((cohort) => (
          <tr key={cohort.week} aria-label={weekLabel(cohort.week)}>
            <td className="nowrap">{weekLabel(cohort.week)}</td>
            <td className="num">{formatCount(cohort.size)}</td>
            {cohort.back.map((count, k) => (
              <ShareCell
                key={k}
                share={count === null ? null : count / cohort.size}
                title={count === null ? `week ${k} is not over for every ${unit} of this cohort yet` : `${formatCount(count)} of ${formatCounted(cohort.size, unit)} back in week ${k}`}
              />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
