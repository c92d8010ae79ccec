/**
 * The answers of the audit trail's routes (issue #33, docs/users-and-roles.md "Audit trail"): `GET /api/audit`
 * (admin) and the entries `GET /api/audit.csv` writes as rows. Shared by the server that records and sends them
 * (server/audit) and the console's Audit page. Types and the list of actions only. Times are epoch ms.
 */

/** Who made a change. */
export interface AuditActor {
  /** How they proved it; `anonymous` for a refused sign-in. */
  kind: 'admin token' | 'user' | 'api token' | 'designer' | 'anonymous';
  userId?: string;
  email?: string;
  /** A personal API token's name. */
  tokenName?: string;
}

/** What a route records once its change succeeded. */
export interface AuditChange {
  /** Dotted verb, one of {@link AUDIT_ACTIONS}: `guide.saved`, `user.roleChanged`, `login.refused`... */
  action: string;
  apiKey?: string;
  /** What was changed: a guide id, a user's email, a token's name. */
  target?: string;
  before?: unknown;
  after?: unknown;
}

/** One stored entry. */
export interface AuditEntry extends AuditChange {
  id: number;
  /** Epoch ms. */
  at: number;
  actor: AuditActor;
  /** The request's address as the server's trustProxy setting reads it. */
  address: string;
}

/** `GET /api/audit`: entries newest first; `next`, when there are more, is the `before` of the next page. */
export interface AuditPage {
  entries: AuditEntry[];
  next?: number;
}

/**
 * Every action the server records, grouped by what it is about (docs/users-and-roles.md "Audit trail"); the
 * `action` filter takes one, or a group's prefix ending in `.` (`guide.`).
 */
export const AUDIT_ACTIONS = [
  'guide.saved',
  'guide.published',
  'guide.disabled',
  'guide.stateChanged',
  'guide.duplicated',
  'guide.deleted',
  'guide.restored',
  'settings.saved',
  'theme.saved',
  'app.created',
  'feature.created',
  'feature.updated',
  'feature.deleted',
  'page.created',
  'page.updated',
  'page.deleted',
  'segment.created',
  'segment.updated',
  'segment.deleted',
  'user.created',
  'user.invited',
  'user.updated',
  'user.roleChanged',
  'user.removed',
  'invitation.accepted',
  'me.updated',
  'token.created',
  'token.revoked',
  'designerSession.opened',
  'designerSession.ended',
  'login.succeeded',
  'login.refused',
] as const;

/** One of the recorded actions. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
