/**
 * An error that carries the HTTP status to answer with. The server's error handler turns it into
 * `{ "error": message, "field"?: path }`, so bad input always gets a 4xx with a readable reason and never a crash.
 */
export class HttpError extends Error {
  /** The HTTP status code, read by Fastify's error handling. */
  readonly statusCode: number;
  /** The input field at fault (`steps[0].id`, `from`), answered as `field` beside `error`. */
  readonly field?: string;

  /** @param statusCode 4xx for the caller's fault. @param field the input field at fault, when one is. */
  constructor(statusCode: number, message: string, field?: string) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    if (field !== undefined) this.field = field;
  }
}

/**
 * Rethrows a database error, as a 400 when it is a data exception (SQLSTATE class 22: jsonb and text refuse
 * \u0000 and lone surrogates, bigint a number out of range): the caller's data, not the server's fault. The
 * message is ours: the database's own words (which may quote the SQL or the value) never reach a client (issue #31).
 * The checkers refuse such values first, naming the field; this is the last line.
 */
export function rethrowAsClientDataError(err: unknown, what: string): never {
  const code = (err as { code?: string }).code;
  if (typeof code === 'string' && code.startsWith('22')) {
    throw new HttpError(400, `${what} could not be stored: it holds a value the database refuses (such as text with U+0000 or a number out of range)`);
  }
  throw err;
}
