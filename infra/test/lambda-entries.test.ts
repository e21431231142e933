import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeGroups } from '../../functions/src/routes.js';
import { lambdaEntryPath, repoRoot } from '../lib/paths.js';

describe('Lambda entries', () => {
  it.each(routeGroups())('route group %s has functions/src/lambda/<group>.ts exporting `handler`', (group) => {
    const entry = lambdaEntryPath(repoRoot, group);
    expect(existsSync(entry), `${entry} is missing: the stack cannot bundle the ${group} function`).toBe(true);
    expect(readFileSync(entry, 'utf8')).toMatch(
      /export\s+(const|let|async\s+function|function)\s+handler\b|export\s*\{[^}]*\bhandler\b[^}]*\}/,
    );
  });
});
