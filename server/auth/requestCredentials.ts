/**
 * The credentials a request carries, read from its headers: a cookie's value and a Bearer token. Shared by the
 * guard (registerAuth) and the sign-in routes (registerLoginRoutes).
 */
import type { FastifyRequest } from 'fastify';

/** The value of one cookie of a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The token of an `Authorization: Bearer` header, or undefined. */
export const bearerOf = (request: FastifyRequest) => /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
