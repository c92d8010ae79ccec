/**
 * The reference server's schema, in order (run by runMigrations at every start; each once per database). Add a
 * migration at the end; never edit one that has shipped. 1-5 are the tables as they stood when versioning began,
 * written with `if not exists` so a database created before then takes them without harm.
 */
import type { Database } from '../Database';
import { EVENTS_SCHEMA } from '../../ingest/createEventStore';
import { LOGS_SCHEMA } from '../../ingest/createLogStore';
import { HEALTH_REPORTS_SCHEMA } from '../../ingest/createMonitorStore';
import { QUOTA_SCHEMA } from '../../ingest/createQuotaStore';
import { GUIDES_SCHEMA } from '../../guides/createGuideStore';
import { SETTINGS_SCHEMA } from '../../settings/createSettingsStore';
import { migrateToPartitions } from '../partitions/migrateToPartitions';
import { migrateConsoleTables } from '../../summaries/migrateConsoleTables';
import { RECORDINGS_SCHEMA } from '../../recordings/createRecordingStore';
import { SUMMARY_QUEUE_SCHEMA } from '../../summaries/drainSummaryQueue';
import { PAGES_WITHOUT_QUERY } from '../../summaries/pagesWithoutQuery';
import { AUTH_SCHEMA } from '../../auth/createAuthStore';
import { USERS_SCHEMA } from '../../auth/users/createUserStore';
import { TOKENS_SCHEMA } from '../../auth/users/createTokenStore';
import { AUDIT_SCHEMA } from '../../audit/createAuditLog';
import { GUIDE_VERSIONS_SCHEMA } from '../../guides/history/createGuideVersions';
import { SSO_SCHEMA } from '../../auth/sso/createSsoStore';
import { ANALYTICS_SCHEMA, FEATURE_EVENT_PROPERTIES_SCHEMA } from '../../analytics/ANALYTICS_SCHEMA';
import { SEGMENTS_SCHEMA } from '../../analytics/segments/SEGMENTS_SCHEMA';
import { ROLLUPS_SCHEMA } from '../../analytics/ROLLUPS_SCHEMA';
import { FILL_ROLLUPS } from '../../analytics/rollupsSql';
import { COVERING_STEP_INDEXES, STEP_INDEXES } from '../../analytics/STEP_INDEXES';
import { FILL_TIMELINE_COPY, TIMELINE_COPY_SCHEMA } from '../../analytics/timelineCopySql';
import { TIMELINE_COPY_STEP_INDEXES } from '../../analytics/TIMELINE_COPY_STEP_INDEXES';
import { TIMELINE_INDEX } from '../../analytics/TIMELINE_INDEX';
import { FILL_UNIT_WEEKS, UNIT_WEEKS_SCHEMA } from '../../analytics/unitWeeksSql';
import { FILL_UNIT_KEY_WEEKS, UNIT_KEY_WEEKS_SCHEMA } from '../../analytics/unitKeyWeeksSql';
import { runMigrations, type Migration } from './runMigrations';

/** A migration that makes its tables (or indexes), then fills them from the rows already stored. */
const makeThenFill = (schema: string, fill: string): Migration['up'] => async (db) => {
  await db.exec(schema);
  await db.query(fill);
};

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'events', up: EVENTS_SCHEMA },
  { version: 2, name: 'logs', up: LOGS_SCHEMA },
  { version: 3, name: 'guides', up: GUIDES_SCHEMA },
  { version: 4, name: 'app settings', up: SETTINGS_SCHEMA },
  // The console's columns and summary tables, filled from the events stored before them (bounded slices).
  { version: 5, name: 'console summaries', up: migrateConsoleTables },
  // Retention (server/storage/createRetention.ts) deletes by the time an event was received.
  { version: 6, name: 'events by received time', up: 'create index if not exists events_by_received_at on events (received_at);' },
  // Events partitioned by month; exactly-once in event_keys (a unique index there cannot hold the partition key).
  { version: 7, name: 'events partitioned by month', up: (db) => migrateToPartitions(db) },
  // Session recordings (issue #18): a summary row per recording and its chunks, each stored once.
  { version: 8, name: 'recordings', up: RECORDINGS_SCHEMA },
  // The console's summaries leave the beacon's statement (issue #19): batches queued there, summarized after.
  { version: 9, name: 'summary queue', up: SUMMARY_QUEUE_SCHEMA },
  // The console's top pages: a page is its address without query and fragment, kept so in the summaries.
  { version: 10, name: 'pages without query', up: PAGES_WITHOUT_QUERY },
  // The agent's health reports (POST /data/monitor), read by the console's Health view.
  { version: 11, name: 'agent health reports', up: HEALTH_REPORTS_SCHEMA },
  // Console and designer sessions and failed logins, shared by every collector (issue #31).
  { version: 12, name: 'auth state', up: AUTH_SCHEMA },
  // Quotas per app on the open /data endpoints, counted per window and shared by every collector (issue #31).
  { version: 13, name: 'quotas', up: QUOTA_SCHEMA },
  // Users and roles (issue #33): users, invitations, personal API tokens, login failures per account, and the user
  // a session belongs to.
  { version: 14, name: 'users and roles', up: USERS_SCHEMA + TOKENS_SCHEMA },
  // The audit trail, append-only (a trigger refuses updates and deletes), and each guide's versions (issue #33).
  { version: 15, name: 'audit trail and guide history', up: AUDIT_SCHEMA + GUIDE_VERSIONS_SCHEMA },
  // Single sign-on (issue #33): sign-ins under way, taken once by any collector, and the provider account of a user.
  { version: 16, name: 'single sign-on', up: SSO_SCHEMA },
  // Features and pages a product team names (issue #35), counted over the events already stored.
  { version: 17, name: 'features and pages', up: ANALYTICS_SCHEMA },
  // Segments of visitors (issue #35), judged over the stored events and summaries when asked.
  { version: 18, name: 'segments', up: SEGMENTS_SCHEMA },
  // Per-visitor, per-day rollups of clicked elements and addresses, their dictionaries and the rules' matches
  // (issue #35 "Fast at real volumes"), filled from the events already stored.
  {
    version: 19,
    name: 'analytics rollups',
    up: makeThenFill(ROLLUPS_SCHEMA, FILL_ROLLUPS),
  },
  // Funnels and retention read their steps' events by key (issue #35 "Fast at real volumes"): partial expression
  // indexes of events per kind of step, and each unit's first and last event per UTC week, filled from the events.
  {
    version: 20,
    name: 'step indexes and unit weeks',
    up: makeThenFill(STEP_INDEXES + UNIT_WEEKS_SCHEMA, FILL_UNIT_WEEKS),
  },
  // The event properties of a feature's clicks, served to the agent in guide.json's features (issue #35).
  { version: 21, name: 'feature event properties', up: FEATURE_EVENT_PROPERTIES_SCHEMA },
  // Paths read the events around each occurrence of their start (issue #35 "Fast at real volumes"): an index of
  // the visitors' timelines by time.
  { version: 22, name: 'visitor timelines by time', up: TIMELINE_INDEX },
  // Retention of a feature or a page reads each unit's weeks per element and address instead of the events (issue #35
  // "Fast at real volumes"), filled from the events already stored.
  {
    version: 23,
    name: 'unit key weeks',
    up: makeThenFill(UNIT_KEY_WEEKS_SCHEMA, FILL_UNIT_KEY_WEEKS),
  },
  // A funnel's (retention's, a segment's) track and load steps read from their index alone (issue #35 "Fast at real
  // volumes"): those indexes again, holding the unit ids, the id and a load's address.
  { version: 24, name: 'covering step indexes', up: COVERING_STEP_INDEXES },
  // Paths walk a narrow copy of the visitors' timelines, index only (issue #35 "Fast at real volumes"), filled from
  // the events already stored.
  { version: 25, name: 'timeline copy', up: makeThenFill(TIMELINE_COPY_SCHEMA, FILL_TIMELINE_COPY) },
  // Paths read their start's own events from that copy too, by step key, index only (issue #35 "Fast at real volumes").
  { version: 26, name: 'timeline copy by step key', up: TIMELINE_COPY_STEP_INDEXES },
];

/** Brings `db` to the current schema; answers the versions applied now. */
export function migrateSchema(db: Database): Promise<number[]> {
  return runMigrations(db, MIGRATIONS);
}
