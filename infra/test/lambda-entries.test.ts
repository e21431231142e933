import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lambdaEntryPath, repoRoot } from '../lib/paths.js';
import { lambdaEntryNames } from './helpers.js';

describe('Lambda entries', () => {
  it.each(lambdaEntryNames())('%s has functions/src/lambda/<name>.ts exporting `handler`', (group) => {
    const entry = lambdaEntryPath(repoRoot, group);
    expect(existsSync(entry), `${entry} is missing: the stack cannot bundle the ${group} function`).toBe(true);
    expect(readFileSync(entry, 'utf8')).toMatch(
      /export\s+(const|let|async\s+function|function)\s+handler\b|export\s*\{[^}]*\bhandler\b[^}]*\}/,
    );
  });
});
