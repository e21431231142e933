// Lint for every workspace (`npm run lint`; `npm test` runs it before the tests, zero warnings):
// typescript-eslint's recommended rules, React's rules of hooks for the SPA, and for the back end's
// sources the type-aware promise rules (a promise nobody awaits is work a Lambda may drop silently).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/cdk.out/**', '.data/**', '.tmp/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // `import { z }` pulls zod's whole namespace object into every Lambda bundle that touches the
      // module (one such import once grew three bundles past the 1 MB budget); `* as z` tree-shakes.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value=/^zod(\\/mini)?$/] > ImportSpecifier[imported.name='z']",
          message: "Use `import * as z from 'zod/mini'` (tree-shakes).",
        },
      ],
      // Classic zod's methods and messages, none tree-shakable, were ~90 KB of every Lambda's cold start
      // (docs/testing.md, Performance budgets): the code uses zod/mini (infra/test/bundling.test.ts checks the bundles).
      'no-restricted-imports': [
        'error',
        ...['zod', 'zod/v4', 'zod/v3'].map((name) => ({
          name,
          message: "Use `import * as z from 'zod/mini'`: classic zod does not tree-shake (cold start).",
        })),
      ],
    },
  },
  {
    // Tests may build schemas with classic zod.
    files: ['**/test/**/*.{ts,tsx}', '**/*.test.{ts,tsx}', 'frontend/e2e/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['functions/src/**/*.ts', 'shared/src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Tests read JSON answers and captured log lines field by field; typing each one would restate the contract.
    files: ['**/test/**/*.{ts,tsx}', '**/*.test.{ts,tsx}', 'frontend/e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
