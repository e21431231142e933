import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['shared', 'functions', 'frontend', 'infra'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
