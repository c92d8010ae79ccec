/**
 * GET /api/apps: every api key with events or guides, from the per-app summaries.
 */
import type { Database } from '../Database';

/** One app of the list. */
export interface ConsoleApp {
  apiKey: string;
  events: number;
  visitors: number;
  /** Epoch ms of the first and latest event; null for an app with guides only. */
  firstSeen: number | null;
  lastSeen: number | null;
  guides: number;
}

const APPS = `
select a.api_key, a.events, a.first_seen, a.last_seen,
       (select count(*) from console_visitors v where v.api_key = a.api_key) as visitors
from console_apps a
order by a.api_key`;

/** Apps with events, joined with `guideCounts` (apps with guides only are listed with zero events). */
export async function queryApps(db: Database, guideCounts: Record<string, number>): Promise<ConsoleApp[]> {
  const { rows } = await db.query<Record<string, unknown>>(APPS);
  const apps = new Map<string, ConsoleApp>();
  for (const row of rows) {
    const apiKey = String(row.api_key);
    apps.set(apiKey, {
      apiKey,
      events: Number(row.events),
      visitors: Number(row.visitors),
      firstSeen: Number(row.first_seen),
      lastSeen: Number(row.last_seen),
      guides: guideCounts[apiKey] ?? 0,
    });
  }
  for (const [apiKey, guides] of Object.entries(guideCounts)) {
    if (!apps.has(apiKey) && guides > 0) apps.set(apiKey, { apiKey, events: 0, visitors: 0, firstSeen: null, lastSeen: null, guides });
  }
  return [...apps.values()].sort((a, b) => (a.apiKey < b.apiKey ? -1 : a.apiKey > b.apiKey ? 1 : 0));
}
