import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.ts'],
    environment: 'node',
    // One DynamoDB Local and one Chromium for the run; each file's apps, tables and browser contexts stay its own, so
    // files run side by side like the other projects' (the root config's maxWorkers).
    globalSetup: ['global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A page waited for by expect.poll may take seconds on a busy CI machine (1 s by default).
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
