import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Comments point only at what a reader of this repository can open (docs/, other source files).
 * The design notes the code was once written from are not in the repository, so a source file
 * that names them again fails here.
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE_DIRS = [
  'functions/src',
  'functions/test',
  'shared/src',
  'shared/test',
  'frontend/src',
  'frontend/e2e',
  'infra/lib',
  'infra/bin',
  'infra/test',
  'scripts',
];
const SOURCE_FILE = /\.(ts|tsx|mts|mjs|js|css)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'cdk.out', 'screenshots']);
// Spelled in parts, so that this file does not name them itself.
const NOTES = ['SPEC', 'DESIGN', 'INTEGRATIONS'].map((name) => `${name}.md`);

function sourceFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

describe('the repository explains itself', () => {
  it('no source file cites design notes that are not in the repository (see docs/)', () => {
    const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(repoRoot, dir)));
    expect(files.length).toBeGreaterThan(100);
    const citations = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          NOTES.some((note) => line.includes(note)) ? [`${relative(repoRoot, file)}:${i + 1}`] : [],
        ),
    );
    expect(citations).toEqual([]);
  });
});
