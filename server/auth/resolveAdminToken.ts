/**
 * The admin token that opens `/api/*` and the console (issue #14): WAYMARK_ADMIN_TOKEN when set; else the token
 * kept in the data folder (`admin-token`, mode 0600), generated at the first start; with an in-memory database,
 * one generated for this process. `generated` says whether the caller should print it (once, at start).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface AdminToken {
  token: string;
  /** Where it came from: the environment, the data folder, or generated now (and where it was written). */
  source: 'env' | 'file' | 'generated';
  /** The file it is kept in, when there is one. */
  file?: string;
}

/** Tokens shorter than this are refused: the console is a door to every app's data. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

export function resolveAdminToken(given: string | undefined, dataDir: string | undefined): AdminToken {
  if (given !== undefined) {
    if (given.trim().length < MIN_ADMIN_TOKEN_LENGTH) {
      throw new Error(`WAYMARK_ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`);
    }
    return { token: given.trim(), source: 'env' };
  }
  const fresh = () => randomBytes(24).toString('base64url');
  if (!dataDir || dataDir.startsWith('memory://')) return { token: fresh(), source: 'generated' };
  const file = join(dataDir, 'admin-token');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= MIN_ADMIN_TOKEN_LENGTH) return { token: kept, source: 'file', file };
  } catch {
    // No token kept yet: make one below.
  }
  const token = fresh();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, source: 'generated', file };
}
