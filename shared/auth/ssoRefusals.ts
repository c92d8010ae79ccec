/**
 * Why a single sign-on did not sign someone in (issue #33, docs/users-and-roles.md "Single sign-on"): the server
 * redirects a refused sign-in to `/console/login?error=<code>` with one of these fixed codes, and the console's login
 * page shows the words of the code. Never the provider's or the request's own text: a link anyone can craft must not
 * put words of its choosing on our page.
 */

export const SSO_REFUSALS = {
  sso_off: 'Single sign-on is not set up on this server: sign in with your email and password.',
  sso_unavailable: 'The sign-in provider could not be reached: try again in a moment, or sign in with your email and password.',
  sso_busy: 'Too many sign-ins were started from your address: wait a few minutes and try again.',
  sso_state: 'This sign-in was already used, or was not started in this browser: start again with Sign in with SSO.',
  sso_expired: 'The sign-in took longer than 10 minutes: start again with Sign in with SSO.',
  sso_denied: 'The sign-in provider did not sign you in.',
  sso_failed: "The sign-in provider's answer could not be verified: start again with Sign in with SSO, or ask an admin.",
  sso_no_email: 'The sign-in provider did not give your email address: ask an admin.',
  sso_unverified: 'The sign-in provider has not verified your email address: verify it there, or ask an admin.',
  sso_not_invited: 'Your email is not invited to this console: ask an admin to invite you.',
  sso_removed: 'Your account was removed from this console: ask an admin to invite you again.',
  sso_mismatch: "Your email is bound to another account of the sign-in provider: ask an admin.",
} as const;

/** A refusal's code, as `?error=` carries it. */
export type SsoRefusal = keyof typeof SSO_REFUSALS;

/** Whether `value` is one of the codes (what the login page reads from its URL). */
export const isSsoRefusal = (value: unknown): value is SsoRefusal => typeof value === 'string' && Object.hasOwn(SSO_REFUSALS, value);
