/**
 * The roles of the people who use the console (issue #33, docs/users-and-roles.md), each one including the one
 * below it:
 * - `viewer` reads analytics, guides and their results, and recordings when the app's admin allows viewers
 *   (settings `recording.viewersSeeRecordings`); changes nothing;
 * - `editor` also writes guides, themes and translations, uses the designer and previews, and reads everything;
 * - `admin` also manages users, app settings, recording and tokens: everything. The admin token acts as an admin.
 */
import type { Role } from '../../shared/api';

export type { Role };

/** Every role, each including the ones before it. */
export const ROLES = ['viewer', 'editor', 'admin'] as const satisfies readonly Role[];

/** Whether `value` names a role (exactly: `Admin` is not one). */
export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** Whether a caller of role `held` may do what needs `needed`. */
export const hasRole = (held: Role, needed: Role) => ROLES.indexOf(held) >= ROLES.indexOf(needed);

const article = (role: Role) => (role === 'viewer' ? 'a' : 'an');

/** The 403's words for a caller whose role falls short: "this needs the editor role; you are a viewer". */
export const roleRefusal = (needed: Role, held: Role) => `this needs the ${needed} role; you are ${article(held)} ${held}`;
