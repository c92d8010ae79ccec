/**
 * An empty PGlite, made once and dumped, that the server tests' `memory://` databases start from
 * (ServerOptions.memoryTemplate) instead of each running initdb: some seconds of CPU a server start, and the unit
 * run starts a hundred. The template holds no schema: each server still runs every migration, so it can never be
 * stale. `vitest.config.ts` makes it once for the run (pgliteTemplateSetup.ts) and names its file in
 * WAYMARK_TEST_PGLITE_TEMPLATE; a file run alone makes its own, once.
 */
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';

export const TEMPLATE_ENV = 'WAYMARK_TEST_PGLITE_TEMPLATE';

/** An empty database's data folder, as PGlite dumps it (a tar). */
export async function dumpEmptyPglite(): Promise<Blob> {
  const pglite = new PGlite('memory://');
  try {
    await pglite.waitReady;
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
}

let template: Promise<Blob> | undefined;

/** The template of this run: the setup's file, else one made now (once per test file). */
export function pgliteTemplate(): Promise<Blob> {
  const file = process.env[TEMPLATE_ENV];
  template ??= file ? readFile(file).then((bytes) => new Blob([bytes])) : dumpEmptyPglite();
  return template;
}
