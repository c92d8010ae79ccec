/**
 * Where a designer may sign in (issue #31): the console a designer link names (its token's baseUrl) is trusted only
 * when it is the agent's own server or an origin the server's admin listed (WAYMARK_CONSOLE_ORIGINS), which the
 * designer asks the agent's server about (`CONSOLE_ORIGIN_CHECK`). Anything else is refused before the author types
 * anything, with a message naming the origin: a link made by someone else must not collect the admin token.
 */

/** The agent's server answers `{ allowed }` for `?origin=` here (server/auth/registerConsoleOrigins.ts). */
export const CONSOLE_ORIGIN_CHECK = '/data/console-origin';

/** What the designer shows instead of its sign-in when the link's console is not trusted. */
export function untrustedConsoleMessage(origin: string, serverOrigin: string): string {
  return `This designer link names the console at ${origin}, which is neither this app's Waymark server (${serverOrigin}) nor an origin its admin listed (WAYMARK_CONSOLE_ORIGINS). The designer does not sign in there: open the designer from your own console.`;
}

/**
 * Whether the designer may talk to the console at `baseUrl`: at once for the agent's own server, else as the
 * server answers (`ask` fetches CONSOLE_ORIGIN_CHECK; a failure to ask is a no). Answers the refusal, or null.
 */
export async function checkConsoleOrigin(baseUrl: string, serverOrigin: string, ask: (origin: string) => Promise<boolean>): Promise<string | null> {
  if (baseUrl === serverOrigin) return null;
  let allowed = false;
  try {
    allowed = await ask(baseUrl);
  } catch {
    allowed = false;
  }
  return allowed ? null : untrustedConsoleMessage(baseUrl, serverOrigin);
}
