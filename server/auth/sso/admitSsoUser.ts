/**
 * Who a single sign-on lets in (issue #33, docs/users-and-roles.md "Single sign-on"), a pure decision over what the
 * provider proved and what the users table holds:
 * - a live user with the email (any case): signs in with their role, an invitation not yet accepted included (the
 *   admin asked for that email, the provider proved it);
 * - else an email of a listed domain: a new user with the default role, unless a user of that email was removed
 *   (an admin's removal holds until an admin invites them again);
 * - else refused.
 */
import type { Role } from '../roles';
import { readEmail } from '../users/checkUserFields';
import type { SsoRefusal } from '../../../shared/auth/ssoRefusals';

/** What the provider said of the person (ID token, else userinfo). */
export interface SsoClaims {
  email?: unknown;
  email_verified?: unknown;
}

/** The decision: an existing user, a user to create, or a refusal. */
export type SsoAdmission = { kind: 'user'; userId: string } | { kind: 'create'; email: string; role: Role } | { kind: 'refused'; refusal: SsoRefusal };

/**
 * The email the claims prove, or the refusal: present, an address as the users table takes one (readEmail: 254
 * characters, no markup), and `email_verified` exactly true.
 */
export function verifiedEmailOf(claims: SsoClaims): { email: string } | { refusal: SsoRefusal } {
  let email: string;
  try {
    email = readEmail(claims.email);
  } catch {
    return { refusal: 'sso_no_email' };
  }
  // Absent is not true: a provider that lets people type any address (or a tenant that is not the company's) would
  // otherwise sign them in as whoever's email they typed.
  if (claims.email_verified !== true) return { refusal: 'sso_unverified' };
  return { email };
}

/** The lower-cased domain of an email: what follows its last `@`. */
export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** The decision for a proven email. */
export function admitSsoUser(
  email: string,
  found: { user?: { id: string }; removed: boolean },
  { domains, defaultRole }: { domains: ReadonlySet<string>; defaultRole: Role },
): SsoAdmission {
  if (found.user) return { kind: 'user', userId: found.user.id };
  if (!domains.has(emailDomain(email))) return { kind: 'refused', refusal: 'sso_not_invited' };
  if (found.removed) return { kind: 'refused', refusal: 'sso_removed' };
  return { kind: 'create', email, role: defaultRole };
}
