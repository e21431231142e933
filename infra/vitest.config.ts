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
    hookTimeout: 120_000,
  },
});
