import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two test files at a time even on two cores: many tests wait on the processes they
    // start (tafel, bot programs), and one at a time the suite took over ten minutes.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
