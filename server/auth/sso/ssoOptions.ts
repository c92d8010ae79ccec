/**
 * The single sign-on settings (issue #33, docs/users-and-roles.md "Single sign-on"): an OpenID Connect provider and
 * who of its people may enter. Read from the environment by server/main.ts (`ssoOptionsOf`), checked at start by
 * createServer (`checkSsoOptions`): a setting that cannot work stops the start naming the variable, rather than a
 * console that half-works or lets in more people than meant.
 */
import { ROLES, type Role } from '../roles';

/** Single sign-on through an OpenID Connect provider (every field but the three first is optional). */
export interface SsoOptions {
  /** The provider's issuer URL (env WAYMARK_OIDC_ISSUER): https, or http on a loopback address only. */
  issuer: string;
  /** This console's client id at the provider (env WAYMARK_OIDC_CLIENT_ID). */
  clientId: string;
  /** Its client secret (env WAYMARK_OIDC_CLIENT_SECRET); sent to the token endpoint with HTTP Basic. */
  clientSecret: string;
  /**
   * Email domains whose people may enter without an invitation (env WAYMARK_OIDC_DOMAINS, comma-separated), exact
   * (`example.com` lets in `ada@example.com`, not `ada@eu.example.com`). @default [] (invited emails only)
   */
  domains?: readonly string[];
  /** The role of a person let in by their domain (env WAYMARK_OIDC_DEFAULT_ROLE): viewer or editor, never admin. @default 'viewer' */
  defaultRole?: Role;
  /** The clock of the pending sign-ins and the sessions they open (tests move it). @default Date.now */
  now?: () => number;
}

/** Settings as the routes use them: checked, domains lower-cased. */
export interface SsoConfig {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  domains: ReadonlySet<string>;
  defaultRole: Exclude<Role, 'admin'>;
  now: () => number;
}

/** A DNS name: labels of letters, digits and hyphens, at least two of them. */
const DOMAIN = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Checks the settings: undefined when single sign-on is off, else the config; throws naming the variable. */
export function checkSsoOptions(options: SsoOptions | undefined): SsoConfig | undefined {
  if (!options) return undefined;
  const { issuer, clientId, clientSecret, domains = [], defaultRole = 'viewer', now = Date.now } = options;
  const missing = [
    [issuer, 'WAYMARK_OIDC_ISSUER'],
    [clientId, 'WAYMARK_OIDC_CLIENT_ID'],
    [clientSecret, 'WAYMARK_OIDC_CLIENT_SECRET'],
  ].filter(([value]) => !value).map(([, name]) => name);
  if (missing.length) throw new Error(`single sign-on needs WAYMARK_OIDC_ISSUER, WAYMARK_OIDC_CLIENT_ID and WAYMARK_OIDC_CLIENT_SECRET together; missing ${missing.join(', ')}`);
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`WAYMARK_OIDC_ISSUER must be the provider's issuer URL, such as https://login.example.com; got ${JSON.stringify(issuer)}`);
  }
  // The client secret and the ID tokens travel to the issuer: never in clear text off this machine.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new Error(`WAYMARK_OIDC_ISSUER must be an https URL (http only on 127.0.0.1, localhost or [::1]); got ${issuer}`);
  }
  if (url.search || url.hash || url.username || url.password) throw new Error(`WAYMARK_OIDC_ISSUER must have no query, fragment or credentials; got ${issuer}`);
  if (clientId.length > 255 || /[\p{Cc}]/u.test(clientId)) throw new Error('WAYMARK_OIDC_CLIENT_ID must be at most 255 characters without control characters');
  if (clientSecret.length > 1024) throw new Error('WAYMARK_OIDC_CLIENT_SECRET must be at most 1024 characters');
  if (!(ROLES as readonly string[]).includes(defaultRole)) {
    throw new Error(`WAYMARK_OIDC_DEFAULT_ROLE must be viewer or editor; got ${JSON.stringify(defaultRole)}`);
  }
  // Anyone an email domain lets in gets this role: an admin that way could be anyone of a company, or anyone who
  // can make an account at the provider with such an address. Admins are invited one by one.
  if (defaultRole === 'admin') throw new Error('WAYMARK_OIDC_DEFAULT_ROLE may not be admin: anyone of the listed domains would be an admin; invite admins by email instead');
  const listed = new Set<string>();
  for (const domain of domains) {
    const name = domain.trim().toLowerCase();
    if (!DOMAIN.test(name)) throw new Error(`WAYMARK_OIDC_DOMAINS must list email domains such as example.com, comma-separated; got ${JSON.stringify(domain)}`);
    listed.add(name);
  }
  return { issuer: url, clientId, clientSecret, domains: listed, defaultRole, now };
}

/** The settings of the environment, or undefined when none of its variables is set. */
export function ssoOptionsOf(env: Record<string, string | undefined>): SsoOptions | undefined {
  const names = ['WAYMARK_OIDC_ISSUER', 'WAYMARK_OIDC_CLIENT_ID', 'WAYMARK_OIDC_CLIENT_SECRET', 'WAYMARK_OIDC_DOMAINS', 'WAYMARK_OIDC_DEFAULT_ROLE'];
  if (!names.some((name) => env[name])) return undefined;
  return {
    issuer: env.WAYMARK_OIDC_ISSUER ?? '',
    clientId: env.WAYMARK_OIDC_CLIENT_ID ?? '',
    clientSecret: env.WAYMARK_OIDC_CLIENT_SECRET ?? '',
    domains: (env.WAYMARK_OIDC_DOMAINS ?? '').split(',').map((d) => d.trim()).filter(Boolean),
    ...(env.WAYMARK_OIDC_DEFAULT_ROLE ? { defaultRole: env.WAYMARK_OIDC_DEFAULT_ROLE as Role } : {}),
  };
}
