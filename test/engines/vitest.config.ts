import { defineConfig } from 'vitest/config';

/**
 * The cross-engine journeys (issue #32): Firefox ESR and WebKitGTK against the reference server, which the global
 * setup starts as the e2e run does (test/e2e/globalSetup.ts). One file at a time, each engine one browser.
 */
export default defineConfig({
  test: {
    include: ['test/engines/**/*.test.ts'],
    globalSetup: ['test/engines/globalSetup.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: 'test-results/engines.json' }]],
  },
});
