import { defineConfig } from 'vitest/config';

/** Unit tests in Node: shared/ and worker/ logic with fake ports, fake-indexeddb, and the server via inject. */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/server/**/*.test.ts'],
    // On the real PostgreSQL only (vitest.postgres.config.ts).
    exclude: ['test/server/postgres/**'],
    environment: 'node',
    reporters: ['default', ['json', { outputFile: 'test-results/unit.json' }]],
  },
});
