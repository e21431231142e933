import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['shared', 'functions', 'frontend', 'infra', 'frontend/e2e'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
