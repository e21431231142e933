import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['shared', 'functions', 'frontend', 'infra', 'frontend/e2e'],
    // At least two files at a time (Vitest's default leaves one core to itself: one worker on 2 cores). Most files
    // spend their time waiting on other processes (the browser, the app servers, DynamoDB Local, the channel
    // servers), and the other file's work fills that (docs/testing.md, Run time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
