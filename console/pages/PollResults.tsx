/**
 * A guide's polls: responses per value; for an NPS poll the score and the 0-10 distribution; a yes/no poll's 1 and
 * 0 shown as Yes and No; a number scale's mean.
 */
import { BarList } from '../components/BarList';
import { formatCount, formatCounted } from '../format';
import type { GuideStats } from '../types';

/** The polls' cards; nothing when the guide has no poll answers. */
export function PollResults({ polls }: { polls: GuideStats['polls'] }) {
  if (polls.length === 0) return null;
  return (
    <>
      {polls.map((poll) => (
        <section className="card" key={poll.pollId} aria-label={`Poll ${poll.pollId}`}>
          <h2>Poll {poll.pollId}</h2>
          {poll.nps ? (
            <div className="nps">
              <div className="stat">
                <div className="stat-value" data-testid="nps-score">{poll.nps.score}</div>
                <div className="stat-label">NPS ({formatCounted(poll.nps.total, 'answer')})</div>
              </div>
              <div className="nps-split">
                <span className="promoters">Promoters {formatCount(poll.nps.promoters)}</span>
                <span className="passives">Passives {formatCount(poll.nps.passives)}</span>
                <span className="detractors">Detractors {formatCount(poll.nps.detractors)}</span>
              </div>
              <ol className="nps-distribution" aria-label="Score distribution">
                {poll.nps.distribution.map((count, score) => (
                  <li key={score} className={score >= 9 ? 'promoter' : score >= 7 ? 'passive' : 'detractor'}>
                    <span className="nps-bar" style={{ height: `${(count / Math.max(1, ...poll.nps!.distribution)) * 100}%` }} title={`${count} answered ${score}`} />
                    <span className="nps-score">{score}</span>
                    <span className="nps-count">{count}</span>
                  </li>
                ))}
              </ol>
            </div>
          ) : (
            <>
              {poll.average !== undefined && (
                <div className="stat">
                  <div className="stat-value" data-testid="scale-average">{poll.average}</div>
                  <div className="stat-label">Average ({formatCount(poll.responses.reduce((n, r) => n + r.count, 0))} answers)</div>
                </div>
              )}
              <BarList
                title={`Responses to poll ${poll.pollId}`}
                empty="No answers yet."
                rows={poll.responses.map((r) => ({ key: String(r.value), label: answerLabel(poll.type, r.value), value: r.count }))}
              />
            </>
          )}
        </section>
      ))}
    </>
  );
}

/** How an answer reads: a yes/no poll's 1 and 0 as Yes and No, anything else as it was sent. */
function answerLabel(type: string, value: string | number): string {
  if (/^YesNo$/i.test(type) && (value === 1 || value === 0)) return value === 1 ? 'Yes' : 'No';
  return String(value);
}
