/**
 * Adding a channel is its own folder(s) plus one registry entry (docs/architecture.md, Channels): outside the
 * channels' folders, the product's source names a new channel only on its registry line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { channelIds } from '../src/channels/registry.js';

const root = join(import.meta.dirname, '..', '..');
/** The product's source (tests aside): the server, the shared code, the SPA and the stack. */
const SOURCES = ['functions/src', 'shared/src', 'frontend/src', 'infra/lib', 'infra/bin'];
/** A channel's own folders: the server's, the shared code's and the SPA's (`<workspace>/src/channels/<id>/`). */
const channelFolder = (file: string, id: string) =>
  ['functions', 'shared', 'frontend'].some((workspace) => file.startsWith(`${workspace}/src/channels/${id}/`));

function sourceFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'test' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Each line outside the channel's folders that names it, as `file:line`. */
function namingLines(id: string): string[] {
  // (not a CSS class such as btn--ghost)
  const word = new RegExp(`(?<![-\\w])${id}(?![-\\w])`, 'i');
  return SOURCES.flatMap(sourceFiles)
    .filter((file) => !channelFolder(file, id))
    .flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (word.test(line) ? [`${relative(root, join(root, file))}:${i + 1}`] : [])),
    );
}

const lineOf = (file: string, pattern: RegExp) => {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  return `${file}:${lines.findIndex((line) => pattern.test(line)) + 1}`;
};

/**
 * Its registry entries: the server's id (the list of ids, channels/ids.ts) and line, and the SPA's import of its folder
 * and the list that holds it.
 */
const registryLines = (id: string) => [
  lineOf('functions/src/channels/ids.ts', /^export const channelIds\b/),
  lineOf('functions/src/channels/registry.ts', new RegExp(`^\\s*${id}:`)),
  lineOf('frontend/src/channels/registry.ts', new RegExp(`^import \\{ ${id} \\} from './${id}';`)),
  lineOf('frontend/src/channels/registry.ts', /^export const CHANNEL_REGISTRY\b/),
];

describe('a new channel outside its folders', () => {
  it('Ghost is in the registry, and named nowhere else outside its folders but on its registry lines', () => {
    expect(channelIds).toContain('ghost');
    expect(namingLines('ghost')).toEqual(registryLines('ghost'));
  });

  it('Bluesky is in the registry, and named nowhere else outside its folders but on its registry lines', () => {
    expect(channelIds).toContain('bluesky');
    expect(namingLines('bluesky')).toEqual(registryLines('bluesky'));
  });
});
