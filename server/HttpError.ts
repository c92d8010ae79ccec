/**
 * An error that carries the HTTP status to answer with. The server's error handler turns it into
 * `{ "error": message }`, so bad input always gets a 4xx with a readable reason and never a crash.
 */
export class HttpError extends Error {
  /** The HTTP status code, read by Fastify's error handling. */
  readonly statusCode: number;
  /** The request parameter or body path at fault, answered as `field` (docs/console-api.md error shape). */
  readonly field?: string;

  /** @param statusCode 4xx for the caller's fault. @param field the parameter at fault, when one is. */
  constructor(statusCode: number, message: string, field?: string) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    if (field !== undefined) this.field = field;
  }
}

/**
 * Rethrows a database error, as a 400 naming the reason when it is a data exception (SQLSTATE class 22:
 * jsonb and text refuse \u0000 and lone surrogates): the caller's data, not the server's fault.
 */
export function rethrowAsClientDataError(err: unknown, what: string): never {
  const code = (err as { code?: string }).code;
  if (typeof code === 'string' && code.startsWith('22')) {
    throw new HttpError(400, `${what} could not be stored: ${(err as Error).message}`);
  }
  throw err;
}
