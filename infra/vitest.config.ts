import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    // The files share one module graph per worker: each one used to import the stack's modules (aws-cdk-lib's
    // constructs, cdk-nag) anew, about half of a file's time (docs/testing.md, Run time). They keep no state between
    // files (each builds its own App; alarm-metrics.test.ts restores its spies and environment).
    isolate: false,
    // A phase of its own after the other projects' files, so that each worker, given infra files only, keeps its
    // modules from one file to the next (mixed with other projects' files a worker is replaced after each).
    sequence: { groupOrder: 1 },
    hookTimeout: 120_000,
  },
});
