/**
 * vitest's global setup (vitest.config.ts): the empty PGlite the server tests start from, dumped once into a
 * temporary file for the whole run (test/server/pgliteTemplate.ts), removed at the end.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dumpEmptyPglite, TEMPLATE_ENV } from './pgliteTemplate';

export default async function setup(): Promise<() => void> {
  const folder = mkdtempSync(join(tmpdir(), 'waymark-pglite-template-'));
  const file = join(folder, 'empty.tar');
  writeFileSync(file, new Uint8Array(await (await dumpEmptyPglite()).arrayBuffer()));
  process.env[TEMPLATE_ENV] = file;
  return () => rmSync(folder, { recursive: true, force: true });
}
