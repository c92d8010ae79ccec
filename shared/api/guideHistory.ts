/**
 * The answers of a guide's history routes (issue #33, docs/users-and-roles.md "Guide history"), under
 * `/api/apps/{apiKey}/guides/{id}/versions`: the versions, one version, the difference between two in words, a
 * restore. Shared by the server (server/guides/history) and the console's History tab. Types only. Times are epoch ms.
 */
import type { Guide } from '../guides/guides';
import type { AuditActor } from './audit';
import type { GuideState } from './guides';

/** One kept version: who made it, when, the state and the whole guide. */
export interface GuideVersion {
  /** Counted per guide from 1. */
  version: number;
  /** Epoch ms. */
  at: number;
  actor: AuditActor;
  state: GuideState;
  guide: Guide;
}

/** `GET .../versions`: the versions, newest first, without their guides. */
export interface GuideVersionList {
  versions: Array<Omit<GuideVersion, 'guide'>>;
}

/** One change between two versions (server/guides/history/diffGuides.ts). */
export interface GuideChange {
  kind: 'stepAdded' | 'stepRemoved' | 'stepText' | 'stepTarget' | 'launchMethod' | 'audience' | 'schedule' | 'state' | 'name' | 'translations' | 'other';
  /** The step concerned, for the step kinds. */
  stepId?: string;
  /** The field that changed (for targeting and other). */
  field?: string;
  before?: unknown;
  after?: unknown;
  /** The change in words. */
  sentence: string;
}

/** `GET .../versions/{a}/diff/{b}`: what changed from version `from` to version `to`, in words and in detail. */
export interface GuideDiff {
  from: number;
  to: number;
  sentences: string[];
  changes: GuideChange[];
}

/** `POST .../versions/{n}/restore`: 201, the version's guide saved again as a draft, a new version. */
export interface GuideRestored {
  version: number;
  restoredFrom: number;
  guide: Guide;
  state: GuideState;
  updatedAt: number;
}
