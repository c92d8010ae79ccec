/** The answers of the admin API as the console reads them (docs/console-api.md). Times are epoch ms. */
import type { FormField } from '../shared/forms/formValidation';
import type { GuideTheme } from '../shared/surfaces/guideTheme';
import type { RecordingSummary } from '../server/recordings/recordingSummary';
import type { AgentHealth } from '../server/queries/agentHealth';
import type { AppHealthGlance } from '../server/queries/queryApps';
import type { AppQuotas } from '../server/settings/checkSettings';

export interface AppRow {
  apiKey: string;
  events: number;
  visitors: number;
  firstSeen: number | null;
  lastSeen: number | null;
  guides: number;
  health24h: AppHealthGlance;
}

export interface Range {
  from: number;
  to: number;
  bucket: 'hour' | 'day';
}

export interface Overview {
  range: Range;
  totals: { events: number; visitors: number; accounts: number; sessions: number };
  series: Array<{ t: number; events: number; visitors: number }>;
  topPages: Array<{ url: string; events: number; visitors: number }>;
  topFeatures: Array<{ label: string; tag: string; id: string; text: string; clicks: number }>;
  frustration: { rageClicks: number; deadClicks: number; errorClicks: number; uTurns: number };
  channels: Array<{ channel: string; sessions: number }>;
  sessions: { count: number; medianDurationMs: number; meanEvents: number };
}

export interface ConsoleEvent {
  id: number;
  receivedAt: number;
  time: number;
  kind: string;
  type: string;
  visitorId: string | null;
  accountId: string | null;
  url: string | null;
  element: { tag: string; id: string; text: string } | null;
  name: string | null;
}

export interface StoredEvent {
  id: number;
  receivedAt: number;
  kind: string;
  type: string;
  visitorId: string | null;
  accountId: string | null;
  source: string | null;
  body: unknown;
}

export interface VisitorRow {
  visitorId: string;
  accountId: string | null;
  firstSeen: number;
  lastSeen: number;
  events: number;
  metadata: Record<string, unknown> | null;
}

export interface VisitorDetail extends Omit<VisitorRow, 'events'> {
  sessions: Array<{ sessionId: string; start: number; end: number; events: number; pages: number }>;
  events: ConsoleEvent[];
}

export interface AccountRow {
  accountId: string;
  visitors: number;
  events: number;
  lastSeen: number;
  metadata: Record<string, unknown> | null;
}

export interface AccountDetail {
  accountId: string;
  metadata: Record<string, unknown> | null;
  visitors: Array<{ visitorId: string; events: number; lastSeen: number }>;
}

export type GuideState = 'draft' | 'staged' | 'public' | 'disabled';

export interface GuideRow {
  id: string;
  name: string;
  state: GuideState;
  launchMethod: string;
  stepCount: number;
  /** A resource center's top-level guide, one of its modules, or a guide. */
  kind: 'guide' | 'resourceCenter' | 'module';
  /** guides §4 Timebox, when the guide has one. */
  showsAfter?: unknown;
  expiresAfter?: unknown;
  updatedAt: number;
  stats: { seen: number; completed: number; dismissed: number };
}

export interface StoredGuide {
  guide: GuideBody;
  state: GuideState;
  updatedAt: number;
}

/** A guide in the wire format (one entry of guide.json's guides[]); only what the console edits is typed. */
export interface GuideBody {
  id: string;
  name?: string;
  launchMethod: string;
  steps: Array<Record<string, unknown> & { id: string; type: string }>;
  [key: string]: unknown;
}

export interface Nps {
  score: number;
  promoters: number;
  passives: number;
  detractors: number;
  total: number;
  distribution: number[];
}

export interface GuideStats {
  range?: Range;
  funnel: Array<{ label: string; stepId?: string; visitors: number }>;
  dismissed: number;
  snoozed: number;
  timeline: Array<{ t: number; seen: number; advanced: number; dismissed: number; snoozed: number }>;
  polls: Array<{ pollId: string; type: string; responses: Array<{ value: string | number; count: number }>; nps?: Nps; average?: number }>;
  health: { errors: Array<{ message: string; count: number; lastSeen: number }>; timeouts: number; notSeen: number };
}

export interface AppSettings {
  launcher: Record<string, unknown> | null;
  guides: { throttling: { enabled: boolean; interval: number; unit: 'minute' | 'hour' | 'day' }; adoptionGuides: 'before' | 'after' };
  recording: { enabled: boolean; sampleRate: number };
  formValidation: { enabled: boolean; fields: FormField[] };
  guideMarkdown: boolean;
  theme: GuideTheme;
  /** What the collector stores for the app at most (issue #31). */
  quotas: AppQuotas;
}

/** A session recording as listed (issue #18, docs/recording.md): the collector's summary, times from the events' timestamps. */
export type RecordingRow = RecordingSummary;

/** A click of the recording's session on its timeline. */
export interface RecordingMark {
  t: number;
  kind: 'click' | 'rage' | 'dead' | 'error';
  label: string;
}

/** One recording to replay: rrweb events from a full snapshot on, and its session's clicks. */
export interface RecordingDetail extends RecordingRow {
  events: Array<{ type: number; data: unknown; timestamp: number }>;
  marks: RecordingMark[];
}

/** What an app's agents reported about themselves over a range, and the errors they logged (GET .../health). */
export type HealthAnswer = AgentHealth;

/** A console user's role (docs/users-and-roles.md): each one may what the one before it may, and more. */
export type Role = 'viewer' | 'editor' | 'admin';

/** A user as /api/users and /api/me answer it. */
export interface ConsoleUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** `invited` until the person sets a password through their invitation. */
  status: 'active' | 'invited';
  createdAt: number;
  lastSignInAt: number | null;
}

/** GET /api/me: who is signed in, how, and with which role; `user` is null for the admin token. */
export interface Me {
  role: Role;
  via: 'admin token' | 'console' | 'designer' | 'api token';
  user: ConsoleUser | null;
}

/** A personal API token as listed (never the token itself). */
export interface PersonalToken {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** POST /api/users without a password, or POST /api/users/{id}/invitation: the link to give the person. */
export interface Invitation {
  invitationUrl: string;
  expiresAt: number;
}
