/**
 * What a designer session may do (issues #15, #31): a designer on the host app's origin saving to a console on
 * another trades the admin's credentials for a session of one app (POST /api/designer-sessions). It may call the
 * routes declared `designer` (its guides, their previews and stats, the app's theme, its own session) and only for
 * its own app: the path's `:apiKey` and every `apiKey` of the query must be the session's, else 403.
 */
import type { FastifyRequest } from 'fastify';
import type { RouteAccess } from './routeAccess';

/** The refusal of a designer session's request, or undefined when it may go on. */
export function checkDesignerScope(sessionApp: string, access: RouteAccess, request: FastifyRequest): string | undefined {
  if (access !== 'designer') return "a designer session may only read and save its own app's guides and previews";
  const params = request.params as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const named = [params?.apiKey, query?.apiKey].flat().filter((key) => key !== undefined);
  for (const key of named) {
    if (key !== sessionApp) return `this designer session is for the app ${JSON.stringify(sessionApp)}, not ${JSON.stringify(String(key))}`;
  }
  return undefined;
}
