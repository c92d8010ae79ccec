/**
 * The answers of the admin API about the people who use the console (issue #33, docs/users-and-roles.md): users,
 * the signed-in caller, invitations, personal tokens. Never a password, its hash, or a token after its creation.
 * Types only. Times are epoch ms.
 */

/** A console user's role: each one may what the one before it may, and more. */
export type Role = 'viewer' | 'editor' | 'admin';

/** A user as `GET /api/users/{id}`, `PATCH /api/users/{id}` and `PATCH /api/me` answer it (and `GET /api/me`'s `user`). */
export interface ConsoleUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /**
   * `invited` until the user sets a password through an invitation or signs in by single sign-on (a user of SSO may
   * have no password and be active).
   */
  status: 'active' | 'invited';
  createdAt: number;
  lastSignInAt: number | null;
}

/** `GET /api/users`: the live users, oldest first. */
export interface UserList {
  users: ConsoleUser[];
}

/** `POST /api/users` without a password: 201 with the new user and the link to give them. */
export interface InvitedUser extends ConsoleUser {
  invitationUrl: string;
  invitationExpiresAt: number;
}

/** `POST /api/users/{id}/invitation`: a new link for the user (their earlier ones end). */
export interface Invitation {
  invitationUrl: string;
  expiresAt: number;
}

/** `GET /api/invitations/{token}` (open): whom a valid invitation link signs in. */
export interface InvitationInfo {
  email: string;
  name: string;
  role: Role;
  expiresAt: number;
}

/** How a caller proved who it is: the admin token, a console login's cookie, a designer session, a personal token. */
export type CallerVia = 'admin token' | 'console' | 'designer' | 'api token';

/** `GET /api/me`: who is signed in, how, and with which role. */
export interface Me {
  role: Role;
  via: CallerVia;
  /** Null for the admin token and the sessions opened with it. */
  user: ConsoleUser | null;
  /** A designer session's app. */
  apiKey?: string;
  /** The personal token the request carried: its id and name. */
  token?: { id: string; name: string };
  /**
   * A viewer's only: the apps whose admin lets viewers see recordings (settings `recording.viewersSeeRecordings`),
   * so the console offers Recordings only there. Editors and admins see every app's.
   */
  recordingApps?: string[];
}

/** A personal API token as `GET /api/me/tokens` lists it: never the token itself. */
export interface PersonalToken {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** `GET /api/me/tokens`: the signed-in user's tokens, newest first. */
export interface TokenList {
  tokens: PersonalToken[];
}

/** `POST /api/me/tokens` `{ name }`: 201 with the token itself (`wmu_...`), shown this once. */
export type NewPersonalToken = PersonalToken & { token: string };

/**
 * `POST /api/designer-sessions` `{ apiKey }` and `POST /api/designer-login`: 201 with a Bearer token (`wmd_...`)
 * for one app's guides, previews and theme (docs/designer.md "Sign in").
 */
export interface DesignerSession {
  token: string;
  apiKey: string;
  expiresAt: number;
}
