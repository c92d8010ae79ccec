import { defineConfig } from 'vitest/config';

/**
 * The collector's and the console's server tests again, on a real PostgreSQL the run starts itself
 * (test/server/postgresSetup.ts): the same SQL as on PGlite, through the `pg` driver. Left out: the tests of
 * PGlite itself (storage: its data folder, a database URL that cannot connect; the console's migration of a
 * PGlite folder) and those without a database (copyAgent).
 */
export default defineConfig({
  // shim/loadChunk.ts: no build version under test (vite.config.ts defines it for the agent's builds).
  define: { __WAYMARK_ASSET_QUERY__: JSON.stringify('') },
  test: {
    include: ['test/server/**/*.test.ts'],
    exclude: ['test/server/storage.test.ts', 'test/server/consoleMigration.test.ts', 'test/server/copyAgent.test.ts'],
    environment: 'node',
    globalSetup: ['test/server/postgresSetup.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/unit-postgres.json' }]],
  },
});
