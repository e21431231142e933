import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '@app/shared';
import { CHANNEL_REGISTRY } from './registry';

/**
 * A channel is its folder (frontend/src/channels/<id>/) plus one registry entry (registry.ts): the rest of the SPA goes
 * through the registry. These count the files outside frontend/src/channels/ that still name a channel (its id or its
 * label, in any case), list them, and pin the number, so it can only go down.
 */
const SRC = join(__dirname, '..');
const CHANNELS_DIR = join(SRC, 'channels');

/** The channels that came before the registry: the files that still name them, at most (lower it as they go). */
const PINNED: Record<string, number> = { wordpress: 16, linkedin: 33 };
/** Files that name either of them. */
const PINNED_EITHER = 35;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === CHANNELS_DIR ? [] : filesUnder(path);
    return [path];
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Its id or its label, in any case ("linkedin", "LinkedIn", "LINKEDIN_MAX_CHARS"). */
const namePattern = (channel: { id: string; label: string }) =>
  new RegExp([...new Set([channel.id, channel.label])].map(escape).join('|'), 'i');

/** The see-through button styles (styles/base.css) share a word with a channel and name none. */
const BUTTON_STYLES = /\bbtn--(?:danger-)?ghost\b/g;
const sources = filesUnder(SRC).map((path) => ({
  path: relative(SRC, path),
  text: readFileSync(path, 'utf8').replace(BUTTON_STYLES, ''),
}));
const naming = (channel: { id: string; label: string }) => {
  const pattern = namePattern(channel);
  return sources.filter((file) => pattern.test(file.text)).map((file) => file.path);
};

describe('channel names outside frontend/src/channels/', () => {
  it('every channel of shared/src/channels.ts is in the registry, in the same order, before any second channel of a version', () => {
    // (A channel with a version of its own, `ownVersion`, is neither: its facts are in its folder.)
    expect(
      CHANNEL_REGISTRY.filter((channel) => !channel.also && !channel.ownVersion).map((channel) => channel.id),
    ).toEqual(CHANNELS.map((channel) => channel.id));
  });

  // Every channel of the registry: those of shared/src/channels.ts and the second channels of a version (Ghost).
  it.each(CHANNEL_REGISTRY.map((channel) => [channel.id, channel] as const))(
    '%s: the files that name it are counted, listed and no more than pinned (0 for a channel added since)',
    (id, channel) => {
      const files = naming(channel);
      console.log(`${id}: ${files.length} files outside channels/ name it\n  ${files.join('\n  ')}`);
      const pinned = PINNED[id] ?? 0;
      expect(files.length, `files naming ${id} outside channels/:\n${files.join('\n')}`).toBeLessThanOrEqual(pinned);
      // Fewer than pinned: lower the pin, so the count cannot grow back.
      expect(files.length, `fewer files name ${id} now: lower PINNED.${id} to ${files.length}`).toBe(pinned);
    },
  );

  it('the files naming any channel are no more than pinned', () => {
    const files = [...new Set(CHANNELS.flatMap((channel) => naming(channel)))];
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(PINNED_EITHER);
    expect(files.length, `fewer files name a channel now: lower PINNED_EITHER to ${files.length}`).toBe(PINNED_EITHER);
  });
});
