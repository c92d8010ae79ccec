/**
 * Whether an error means the database cannot be reached right now (issue #19: PostgreSQL restarted under load),
 * as opposed to a fault of the request or of the server: the collector then answers 503 with Retry-After, and
 * agents send again later (they retry whatever is not answered 2xx, and a 2xx means the rows are committed).
 */

/** SQLSTATE classes and codes of a database going away or refusing connections for now. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
/** Node socket errors of a pool whose server is down or restarting. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // Class 08: connection exceptions.
    if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || SOCKET_CODES.has(code)) return true;
  }
  // node-postgres's own words when the server closes a connection mid-query or a pool client cannot connect.
  return typeof message === 'string' && /Connection terminated|terminating connection|Client has encountered a connection error/i.test(message);
}

/** Seconds a client should wait before trying again. */
export const DATABASE_RETRY_AFTER_S = 5;
