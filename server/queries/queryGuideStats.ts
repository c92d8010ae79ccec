/**
 * GET /api/apps/{apiKey}/guides/{guideId}/stats: a guide's funnel, timeline, polls and health over a range,
 * from its guide events (index events_by_guide: api key, guide id, time) and the error log.
 * Funnel (docs/console-api.md): visitors who saw the first step, then per step the visitors who advanced
 * it, then those who completed the guide (guides §4 "Guide completion": the last step advanced or dismissed).
 */
import type { Database } from '../Database';
import { bucketMs, type ConsoleRange } from './parseRange';
import { npsOf, type NpsResult } from './npsOf';

/** The stats answer (docs/console-api.md). */
export interface GuideStats {
  range: ConsoleRange;
  funnel: Array<{ label: string; stepId?: string; visitors: number }>;
  /** Visitors who dismissed a step of the guide, and who snoozed one. */
  dismissed: number;
  snoozed: number;
  /** Events per bucket. */
  timeline: Array<{ t: number; seen: number; advanced: number; dismissed: number; snoozed: number }>;
  polls: Array<{ pollId: string; responses: Array<{ value: string | number; count: number }>; nps?: NpsResult }>;
  health: { errors: Array<{ message: string; count: number; lastSeen: number }>; timeouts: number; notSeen: number };
}

// $1 api key, $2 guide id, $3 from, $4 to. Per (type, step) and per type: events and distinct visitors.
const BY_TYPE = `
select type, guide_step_id, grouping(guide_step_id) as all_steps, count(*) as events, count(distinct visitor_id) as visitors
from events where api_key = $1 and guide_id = $2 and time >= $3 and time < $4
group by grouping sets ((type, guide_step_id), (type))`;

// $5 the last step: visitors who advanced or dismissed it.
const COMPLETED = `
select count(distinct visitor_id) as visitors
from events where api_key = $1 and guide_id = $2 and time >= $3 and time < $4
  and guide_step_id = $5 and type in ('guideAdvanced', 'guideDismissed')`;

// $5 bucket length in ms.
const TIMELINE = `
select time - ((time % $5) + $5) % $5 as t,
       count(*) filter (where type = 'guideSeen') as seen,
       count(*) filter (where type = 'guideAdvanced') as advanced,
       count(*) filter (where type = 'guideDismissed') as dismissed,
       count(*) filter (where type = 'guideSnoozed') as snoozed
from events where api_key = $1 and guide_id = $2 and time >= $3 and time < $4
  and type in ('guideSeen', 'guideAdvanced', 'guideDismissed', 'guideSnoozed')
group by 1 order by 1`;

const POLLS = `
select body->'props'->>'poll_id' as poll_id, max(body->'props'->>'poll_type') as poll_type,
       body->'props'->>'poll_response' as value, jsonb_typeof(body->'props'->'poll_response') = 'number' as numeric,
       count(*) as count
from events where api_key = $1 and guide_id = $2 and time >= $3 and time < $4 and type = 'pollResponse'
group by 1, 3, 4 order by 1, 5 desc, 3`;

// The error log names no guide field: its messages that mention the guide id.
const ERRORS = `
select message, count(*) as count, max(received_at) as last_seen from logs
where api_key = $1 and kind = 'error' and received_at >= $3 and received_at < $4 and strpos(message, $2) > 0
group by message order by count desc, message limit 20`;

/** Reads the stats of a guide whose steps are `stepIds`, in order. */
export async function queryGuideStats(
  db: Database,
  apiKey: string,
  guideId: string,
  stepIds: readonly string[],
  range: ConsoleRange,
): Promise<GuideStats> {
  const params = [apiKey, guideId, range.from, range.to];
  const lastStep = stepIds[stepIds.length - 1] ?? '';
  const [byType, completed, timeline, polls, errors] = await Promise.all([
    db.query<Record<string, unknown>>(BY_TYPE, params),
    db.query<Record<string, unknown>>(COMPLETED, [...params, lastStep]),
    db.query<Record<string, unknown>>(TIMELINE, [...params, bucketMs(range.bucket)]),
    db.query<Record<string, unknown>>(POLLS, params),
    db.query<Record<string, unknown>>(ERRORS, params),
  ]);
  const count = (type: string, stepId: string | null, column: 'events' | 'visitors') => {
    const row = byType.rows.find((r) =>
      r.type === type && (stepId === null ? Number(r.all_steps) === 1 : Number(r.all_steps) === 0 && r.guide_step_id === stepId));
    return Number(row?.[column] ?? 0);
  };
  return {
    range,
    funnel: [
      { label: 'seen', stepId: stepIds[0], visitors: stepIds[0] === undefined ? 0 : count('guideSeen', stepIds[0], 'visitors') },
      ...stepIds.map((stepId, i) => ({ label: `step ${i + 1} advanced`, stepId, visitors: count('guideAdvanced', stepId, 'visitors') })),
      { label: 'completed', visitors: Number(completed.rows[0]?.visitors ?? 0) },
    ],
    dismissed: count('guideDismissed', null, 'visitors'),
    snoozed: count('guideSnoozed', null, 'visitors'),
    timeline: timeline.rows.map((row) => ({
      t: Number(row.t),
      seen: Number(row.seen),
      advanced: Number(row.advanced),
      dismissed: Number(row.dismissed),
      snoozed: Number(row.snoozed),
    })),
    polls: groupPolls(polls.rows),
    health: {
      errors: errors.rows.map((row) => ({ message: String(row.message), count: Number(row.count), lastSeen: Number(row.last_seen) })),
      timeouts: count('guideTimeout', null, 'events'),
      notSeen: count('guideNotSeen', null, 'events'),
    },
  };
}

function groupPolls(rows: Array<Record<string, unknown>>): GuideStats['polls'] {
  const polls = new Map<string, { type: string; responses: Array<{ value: string | number; count: number }> }>();
  for (const row of rows) {
    const pollId = String(row.poll_id ?? '');
    let poll = polls.get(pollId);
    if (!poll) polls.set(pollId, (poll = { type: '', responses: [] }));
    if (typeof row.poll_type === 'string') poll.type = row.poll_type;
    const text = String(row.value ?? '');
    poll.responses.push({ value: row.numeric === true ? Number(text) : text, count: Number(row.count) });
  }
  return [...polls].map(([pollId, poll]) => {
    const nps = /nps/i.test(poll.type) ? npsOf(poll.responses) : undefined;
    return { pollId, responses: poll.responses, ...(nps ? { nps } : {}) };
  });
}
