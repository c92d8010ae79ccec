/**
 * An error that carries the HTTP status to answer with. The server's error handler turns it into
 * `{ "error": message }`, so bad input always gets a 4xx with a readable reason and never a crash.
 */
export class HttpError extends Error {
  /** The HTTP status code, read by Fastify's error handling. */
  readonly statusCode: number;

  /** @param statusCode 4xx for the caller's fault. */
  constructor(statusCode: number, message: string) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
  }
}
