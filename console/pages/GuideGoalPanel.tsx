/**
 * The guide page's Goal panel (issue #35 "Did the guide work?"): how many of those who saw the guide reached its
 * goal in time and, with an experiment, the same for the control group, the lift (treatment rate - control rate)
 * drawn as a point with its 95% interval as whiskers around the line of no change (plain SVG), and the server's
 * sentence, which says when the groups are too small to tell (GET .../guides/{id}/experiment).
 */
import { useQuery } from '@tanstack/react-query';
import { api, appPath } from '../api';
import { QueryState } from '../components/QueryState';
import { formatCount } from '../format';
import type { ExperimentAnswer, ExperimentArm, Feature, GuideBody, Page } from '../types';
import type { ChosenRange } from '../useRange';
import { useDefinitions } from './RuleActions';

/** Props of {@link GuideGoalPanel}. */
export interface GuideGoalPanelProps {
  apiKey: string;
  guide: GuideBody;
  range: ChosenRange;
}

/** A rate as a percentage with one decimal: '41.7%'; '—' for none. */
const rate = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);
/** A difference of rates in percentage points: '+7.2 pts'. */
const pts = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value * 100).toFixed(1)} pts`;

/** The panel; renders nothing for a guide without a goal. */
export function GuideGoalPanel({ apiKey, guide, range }: GuideGoalPanelProps) {
  const path = appPath(apiKey, `/guides/${encodeURIComponent(guide.id)}/experiment?from=${range.from}&to=${range.to}`);
  const hasGoal = guide.goal !== undefined;
  const answer = useQuery({ queryKey: ['guide-experiment', apiKey, guide.id, guide.goal, guide.experiment, range.from, range.to], queryFn: () => api<ExperimentAnswer>(path), enabled: hasGoal });
  const goal = guide.goal as Record<string, unknown> | undefined;
  const features = useDefinitions<Feature>(apiKey, 'features', typeof goal?.feature === 'string');
  const pages = useDefinitions<Page>(apiKey, 'pages', typeof goal?.page === 'string');
  if (!goal) return null;
  const target =
    typeof goal.feature === 'string' ? `use the feature ${features.data?.find((f) => f.id === goal.feature)?.name ?? goal.feature}`
    : typeof goal.page === 'string' ? `visit the page ${pages.data?.find((p) => p.id === goal.page)?.name ?? goal.page}`
    : `send the track event “${String(goal.track)}”`;
  const a = answer.data;
  return (
    <section className="card" aria-label="Goal">
      <h2>Goal</h2>
      <p className="muted">
        Visitors who {target} within {String(goal.withinDays)} day{goal.withinDays === 1 ? '' : 's'} of first seeing the guide
        {a?.experiment ? `; ${Math.round(a.experiment.controlShare * 1000) / 10}% of its audience is held back as a control group and never sees it.` : '.'}
      </p>
      <QueryState isPending={answer.isPending} error={answer.error}>
        {a && (
          <>
            <table className="table goal-arms">
              <thead>
                <tr>
                  <th>Group</th>
                  <th>Exposed</th>
                  <th>Reached the goal</th>
                  <th>Rate</th>
                </tr>
              </thead>
              <tbody>
                <ArmRow name="Saw the guide" arm={a.treatment} testId="goal-treatment" />
                {a.control && <ArmRow name="Control group" arm={a.control} testId="goal-control" />}
              </tbody>
            </table>
            {a.lift && (
              <>
                <h3 className="goal-chart-title">Lift: the rate of those who saw it minus the control group's, with its 95% interval</h3>
                <LiftChart lift={a.lift} />
              </>
            )}
            <p className={`goal-verdict verdict-${a.verdict.replace(' ', '-')}`} data-testid="goal-sentence">{a.sentence}</p>
            {a.lift && (
              <p className="muted">
                Lift {pts(a.lift.absolute)}
                {a.lift.relative !== null && ` (${a.lift.relative > 0 ? '+' : ''}${Math.round(a.lift.relative * 100)}% relative)`}, 95% interval {pts(a.lift.lower)} to {pts(a.lift.upper)}: Newcombe's hybrid score method
                (from Wilson intervals).
              </p>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}

function ArmRow({ name, arm, testId }: { name: string; arm: ExperimentArm; testId: string }) {
  return (
    <tr data-testid={testId}>
      <td>{name}</td>
      <td>{formatCount(arm.exposed)}</td>
      <td>{formatCount(arm.converted)}</td>
      <td>
        <span className="goal-rate">
          <span className="goal-rate-bar" style={{ width: `${(arm.rate ?? 0) * 100}%` }} />
        </span>{' '}
        {rate(arm.rate)}
      </td>
    </tr>
  );
}

/** The lift as a dot on a scale of percentage points, its 95% interval as whiskers, and the line of no change. */
function LiftChart({ lift }: { lift: NonNullable<ExperimentAnswer['lift']> }) {
  const width = 520;
  const height = 64;
  const pad = 40;
  // A symmetric scale around 0 that holds the interval, in whole 5-point steps.
  const reach = Math.max(0.05, Math.ceil(Math.max(Math.abs(lift.lower), Math.abs(lift.upper)) * 20) / 20);
  const x = (value: number) => pad + ((value + reach) / (2 * reach)) * (width - 2 * pad);
  const y = 26;
  const colour = lift.lower > 0 ? 'var(--ok)' : lift.upper < 0 ? 'var(--danger)' : '#6b7280';
  return (
    <svg className="lift-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Lift ${pts(lift.absolute)}, 95% interval ${pts(lift.lower)} to ${pts(lift.upper)}`}>
      <line x1={pad} x2={width - pad} y1={y} y2={y} stroke="#e5e7eb" />
      <line x1={x(0)} x2={x(0)} y1={6} y2={height - 18} stroke="#9ca3af" strokeDasharray="3 3" />
      <line x1={x(lift.lower)} x2={x(lift.upper)} y1={y} y2={y} stroke={colour} strokeWidth={3} />
      {[lift.lower, lift.upper].map((v, i) => <line key={i} x1={x(v)} x2={x(v)} y1={y - 8} y2={y + 8} stroke={colour} strokeWidth={2} />)}
      <circle cx={x(lift.absolute)} cy={y} r={6} fill={colour} />
      {[-reach, 0, reach].map((v) => (
        <text key={v} x={x(v)} y={height - 4} textAnchor="middle" fontSize={11} fill="#6b7280">
          {v === 0 ? 'no change' : pts(v)}
        </text>
      ))}
    </svg>
  );
}
