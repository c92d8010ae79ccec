/**
 * Where a designer may sign in (issue #31). A designer link names the console it saves to (its token's baseUrl),
 * and the designer asks the author for the admin token there; a link made by an attacker could name any origin.
 * The designer therefore signs in only at the agent's own server or at an origin the admin listed in
 * WAYMARK_CONSOLE_ORIGINS, and asks this server which: `GET /data/console-origin?origin=` answers
 * `{ "allowed": boolean }` for one origin (a yes or no, so the list itself is not published).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpOrigin } from '../../shared/authoring/designerLaunch';
import { CONSOLE_ORIGIN_CHECK } from '../../shared/authoring/consoleOrigin';
import { HttpError } from '../HttpError';

/**
 * The origins of WAYMARK_CONSOLE_ORIGINS (comma-separated, each `http(s)://host[:port]`), or an Error naming the
 * first that is not one.
 */
export function consoleOriginsOf(text: string | undefined): string[] {
  const origins: string[] = [];
  for (const item of (text ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const origin = httpOrigin(item);
    if (!origin || origin !== item.replace(/\/$/, '').toLowerCase()) {
      throw new Error(`WAYMARK_CONSOLE_ORIGINS: ${JSON.stringify(item)} is not an origin such as https://console.example.com (scheme, host and port only)`);
    }
    origins.push(origin);
  }
  return origins;
}

/** Registers the check, open to any page (the designer runs on the host app's origin). */
export function registerConsoleOrigins(app: FastifyInstance, origins: readonly string[]): void {
  const listed = new Set(origins);
  app.get(CONSOLE_ORIGIN_CHECK, async (request: FastifyRequest<{ Querystring: Record<string, string | string[] | undefined> }>) => {
    const asked = request.query.origin;
    if (typeof asked !== 'string' || !asked) throw new HttpError(400, 'origin is required, once: the console origin a designer link names', 'origin');
    const origin = httpOrigin(asked);
    // The server's own origin is always allowed; the designer checks that itself before asking.
    return { allowed: origin !== null && listed.has(origin) };
  });
}
