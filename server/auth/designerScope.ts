/**
 * What a designer session may do (issues #15, #31, #33): a designer on the host app's origin saving to a console on
 * another trades an editor's or admin's credentials for a session of one app (POST /api/designer-sessions). It may
 * call the routes declared `designer: true` (its guides, their previews, the app's theme, its pages and features
 * with their preview (issue #35), its own session), within the role of the user who opened it, and only for its own
 * app: the path's `:apiKey` and every `apiKey` of the query must be the session's, else 403.
 */
import type { FastifyRequest } from 'fastify';

/** The refusal of a designer session's request, or undefined when it may go on. */
export function checkDesignerScope(sessionApp: string, designerRoute: boolean, request: FastifyRequest): string | undefined {
  if (!designerRoute) return "a designer session may only use its own app's guides, previews, pages and features";
  const params = request.params as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const named = [params?.apiKey, query?.apiKey].flat().filter((key) => key !== undefined);
  for (const key of named) {
    if (key !== sessionApp) return `this designer session is for the app ${JSON.stringify(sessionApp)}, not ${JSON.stringify(String(key))}`;
  }
  return undefined;
}
