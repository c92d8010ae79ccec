/**
 * GET /api/apps/{apiKey}/guides/{guideId}/stats: a guide's funnel, timeline, polls and health over a range.
 * Read from the guide summaries (console_guide_visitors, console_guide_buckets, console_poll_responses) and the
 * error log. Funnel (docs/console-api.md): visitors who saw the first step, then per step the visitors who advanced
 * it, then those who completed the guide (guides §4 "Guide completion": the last step advanced or dismissed).
 */
import type { Database } from '../storage/Database';
import type { ConsoleRange, GuideStats, PollResult } from '../../shared/api';
import { npsOf } from './npsOf';

// $1 api key, $2 guide id, $3 from, $4 to. Distinct visitors per (type, step) and per type, from the
// per-visitor summary (one row per visitor, step and type, with the hours it happened).
const VISITORS = `
select type, step_id, grouping(step_id) as all_steps, count(distinct visitor_id) as visitors
from console_guide_visitors where api_key = $1 and guide_id = $2 and active && int8range($3, $4)
group by grouping sets ((type, step_id), (type))`;

// $5 the last step: visitors who advanced or dismissed it.
const COMPLETED = `
select count(distinct visitor_id) as visitors
from console_guide_visitors where api_key = $1 and guide_id = $2 and active && int8range($3, $4)
  and step_id = $5 and type in ('guideAdvanced', 'guideDismissed')`;

// $5 the grain. Guide events per type per bucket.
const BUCKETS = `
select t, type, events from console_guide_buckets
where api_key = $1 and guide_id = $2 and grain = $5 and t >= $3 and t < $4 order by t`;

const POLLS = `
select poll_id, max(poll_type) as poll_type, value, is_number, sum(responses) as count
from console_poll_responses where api_key = $1 and guide_id = $2 and grain = $5 and t >= $3 and t < $4
group by poll_id, value, is_number order by poll_id, count desc, value`;

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
  const [visitors, completed, buckets, polls, errors] = await Promise.all([
    db.query<Record<string, unknown>>(VISITORS, params),
    db.query<Record<string, unknown>>(COMPLETED, [...params, lastStep]),
    db.query<Record<string, unknown>>(BUCKETS, [...params, range.bucket]),
    db.query<Record<string, unknown>>(POLLS, [...params, range.bucket]),
    db.query<Record<string, unknown>>(ERRORS, params),
  ]);
  const visitorsOf = (type: string, stepId: string | null) => {
    const row = visitors.rows.find((r) =>
      r.type === type && (stepId === null ? Number(r.all_steps) === 1 : Number(r.all_steps) === 0 && r.step_id === stepId));
    return Number(row?.visitors ?? 0);
  };
  const timeline = new Map<number, GuideStats['timeline'][number]>();
  const totals = new Map<string, number>();
  for (const row of buckets.rows) {
    const t = Number(row.t);
    const type = String(row.type);
    const events = Number(row.events);
    totals.set(type, (totals.get(type) ?? 0) + events);
    const column = TIMELINE_COLUMNS[type];
    if (!column) continue;
    let point = timeline.get(t);
    if (!point) timeline.set(t, (point = { t, seen: 0, advanced: 0, dismissed: 0, snoozed: 0 }));
    point[column] += events;
  }
  return {
    range,
    funnel: [
      { label: 'seen', stepId: stepIds[0], visitors: stepIds[0] === undefined ? 0 : visitorsOf('guideSeen', stepIds[0]) },
      ...stepIds.map((stepId, i) => ({ label: `step ${i + 1} advanced`, stepId, visitors: visitorsOf('guideAdvanced', stepId) })),
      { label: 'completed', visitors: Number(completed.rows[0]?.visitors ?? 0) },
    ],
    dismissed: visitorsOf('guideDismissed', null),
    snoozed: visitorsOf('guideSnoozed', null),
    timeline: [...timeline.values()],
    polls: groupPolls(polls.rows),
    health: {
      errors: errors.rows.map((row) => ({ message: String(row.message), count: Number(row.count), lastSeen: Number(row.last_seen) })),
      timeouts: totals.get('guideTimeout') ?? 0,
      notSeen: totals.get('guideNotSeen') ?? 0,
    },
  };
}

/** The timeline's column of each guide event type it counts. */
const TIMELINE_COLUMNS: Record<string, 'seen' | 'advanced' | 'dismissed' | 'snoozed' | undefined> = {
  guideSeen: 'seen',
  guideAdvanced: 'advanced',
  guideDismissed: 'dismissed',
  guideSnoozed: 'snoozed',
};

function groupPolls(rows: Array<Record<string, unknown>>): PollResult[] {
  const polls = new Map<string, { type: string; responses: Array<{ value: string | number; count: number }> }>();
  for (const row of rows) {
    const pollId = String(row.poll_id ?? '');
    let poll = polls.get(pollId);
    if (!poll) polls.set(pollId, (poll = { type: '', responses: [] }));
    if (typeof row.poll_type === 'string') poll.type = row.poll_type;
    const text = String(row.value ?? '');
    poll.responses.push({ value: row.is_number === true ? Number(text) : text, count: Number(row.count) });
  }
  return [...polls].map(([pollId, poll]): PollResult => {
    const nps = /nps/i.test(poll.type) ? npsOf(poll.responses) : undefined;
    const average = /^NumberScale$/i.test(poll.type) ? averageOf(poll.responses) : undefined;
    return { pollId, type: poll.type, responses: poll.responses, ...(nps ? { nps } : {}), ...(average !== undefined ? { average } : {}) };
  });
}

/** The mean of a scale's numeric answers, to one decimal; undefined when none is a number. */
function averageOf(responses: Array<{ value: string | number; count: number }>): number | undefined {
  let sum = 0;
  let count = 0;
  for (const r of responses) {
    if (typeof r.value !== 'number') continue;
    sum += r.value * r.count;
    count += r.count;
  }
  return count ? Math.round((sum / count) * 10) / 10 : undefined;
}
