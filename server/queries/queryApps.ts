/**
 * GET /api/apps: every api key with events or guides, and every app made in the console or by the API (a settings
 * row, issue #31: the apps a WAYMARK_APPS=known collector accepts), from the per-app summaries, with what its
 * agents' health reports said over the last 24 hours (the Health page's figures, at a glance).
 */
import type { Database } from '../storage/Database';
import { countsOf, sums } from './queryHealth';
import type { AppHealthGlance, AppRow } from '../../shared/api';

/** The counts that mean trouble: every count of the glance but `reports`. */
const TROUBLE = ['beaconsFailed', 'eventsDropped', 'guideLoadFailures', 'errors'] as const satisfies ReadonlyArray<Exclude<keyof AppHealthGlance, 'reports'>>;

const DAY_MS = 86_400_000;

const HEALTH = `
select api_key, count(*) as reports, ${sums(TROUBLE)}
from health_reports where received_at >= $1
group by api_key`;

const NO_REPORT: AppHealthGlance = { reports: 0, beaconsFailed: 0, eventsDropped: 0, guideLoadFailures: 0, errors: 0 };

const APPS = `
select a.api_key, a.events, a.first_seen, a.last_seen,
       (select count(*) from console_visitors v where v.api_key = a.api_key) as visitors
from console_apps a
order by a.api_key`;

/** Apps with events, joined with `guideCounts` and the apps made (apps with guides or settings only have zero events). */
export async function queryApps(db: Database, guideCounts: Record<string, number>, now: number = Date.now()): Promise<AppRow[]> {
  const [{ rows }, reported, made] = await Promise.all([
    db.query<Record<string, unknown>>(APPS),
    db.query<Record<string, unknown>>(HEALTH, [now - DAY_MS]),
    db.query<{ api_key: string }>('select api_key from app_settings'),
  ]);
  const health = new Map(reported.rows.map((r) => [String(r.api_key), { reports: Number(r.reports), ...countsOf(r, TROUBLE) }]));
  const healthOf = (apiKey: string) => health.get(apiKey) ?? NO_REPORT;
  const apps = new Map<string, AppRow>();
  for (const row of rows) {
    const apiKey = String(row.api_key);
    apps.set(apiKey, {
      apiKey,
      events: Number(row.events),
      visitors: Number(row.visitors),
      firstSeen: Number(row.first_seen),
      lastSeen: Number(row.last_seen),
      guides: guideCounts[apiKey] ?? 0,
      health24h: healthOf(apiKey),
    });
  }
  const withoutEvents = (apiKey: string, guides: number): AppRow => ({ apiKey, events: 0, visitors: 0, firstSeen: null, lastSeen: null, guides, health24h: healthOf(apiKey) });
  for (const [apiKey, guides] of Object.entries(guideCounts)) {
    if (!apps.has(apiKey) && guides > 0) apps.set(apiKey, withoutEvents(apiKey, guides));
  }
  for (const { api_key: apiKey } of made.rows) if (!apps.has(apiKey)) apps.set(apiKey, withoutEvents(apiKey, guideCounts[apiKey] ?? 0));
  return [...apps.values()].sort((a, b) => (a.apiKey < b.apiKey ? -1 : a.apiKey > b.apiKey ? 1 : 0));
}
