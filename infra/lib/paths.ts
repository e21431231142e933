import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the npm workspaces root), found from this file so it does not depend on the cwd. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the Lambda entry of a route group lives, relative to a repository root. */
export const lambdaEntryPath = (root: string, group: string): string =>
  join(root, 'functions', 'src', 'lambda', `${group}.ts`);

/** The built SPA (`npm run build -w frontend`). */
export const defaultSpaDistDir = join(repoRoot, 'frontend', 'dist');

/** True when `dir` looks like a built SPA (has an index.html). */
export const isBuiltSpa = (dir: string): boolean => existsSync(join(dir, 'index.html'));
