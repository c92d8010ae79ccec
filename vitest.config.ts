import { defineConfig } from 'vitest/config';

/**
 * Unit tests in Node: shared/ and worker/ logic with fake ports, fake-indexeddb, and the server via inject; the
 * fuzz properties (test/fuzz) with their fixed seed and short runs (`npm run fuzz` runs them long).
 */
export default defineConfig({
  // shim/loadChunk.ts: no build version under test (vite.config.ts defines it for the agent's builds).
  define: { __WAYMARK_ASSET_QUERY__: JSON.stringify('') },
  test: {
    include: ['test/unit/**/*.test.ts', 'test/server/**/*.test.ts', 'test/fuzz/**/*.test.ts'],
    // On the real PostgreSQL only (vitest.postgres.config.ts).
    exclude: ['test/server/postgres/**'],
    environment: 'node',
    // The empty PGlite every server test starts from, made once (test/server/pgliteTemplate.ts).
    globalSetup: ['test/server/pgliteTemplateSetup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/unit.json' }]],
  },
});
