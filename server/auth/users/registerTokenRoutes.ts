/**
 * A user's personal API tokens (issue #33, docs/users-and-roles.md; auth/createTokenStore.ts), for any role and
 * only of the signed-in user's own:
 * - `POST /api/me/tokens` `{ name }` -> 201 `{ id, name, createdAt, lastUsedAt, token }`, the token shown this once;
 * - `GET /api/me/tokens` -> `{ tokens: [{ id, name, createdAt, lastUsedAt }] }`, never the tokens;
 * - `DELETE /api/me/tokens/{id}` -> 204: the token is a 401 from the next request on, on every collector.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../../HttpError';
import { MAX_TOKENS_PER_USER, type TokenStore } from './createTokenStore';
import { readBody, readTokenName } from './checkUserFields';
import { userOf } from '../callerOf';
import { accessOf } from '../routeAccess';

const TOKEN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function registerTokenRoutes(app: FastifyInstance, { tokens, now }: { tokens: TokenStore; now: () => number }): void {
  const anyRole = accessOf('viewer');

  app.post('/api/me/tokens', anyRole, async (request, reply) => {
    const { id } = userOf(request);
    const name = readTokenName(readBody(request.body, ['name'], '{ "name": "what the token is for" }').name);
    const made = await tokens.create(id, name, now());
    if (made === 'too many') throw new HttpError(409, `at most ${MAX_TOKENS_PER_USER} tokens per user: revoke one first`);
    // Never the token itself: its id and name.
    await app.audit(request, { action: 'token.created', target: name, after: { id: made.id, name } });
    return reply.code(201).send(made);
  });

  app.get('/api/me/tokens', anyRole, async (request) => ({ tokens: await tokens.list(userOf(request).id) }));

  app.delete('/api/me/tokens/:id', anyRole, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const { id } = userOf(request);
    const tokenId = request.params.id;
    const known = TOKEN_ID.test(tokenId) ? (await tokens.list(id)).find((t) => t.id === tokenId) : undefined;
    if (!known || !(await tokens.revoke(id, tokenId))) throw new HttpError(404, 'no such token of yours');
    await app.audit(request, { action: 'token.revoked', target: known.name, before: { id: tokenId, name: known.name } });
    return reply.code(204).send();
  });
}
