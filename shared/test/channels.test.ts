import { describe, expect, it } from 'vitest';
import {
  BlogContentSchema,
  CHANNELS,
  CHANNEL_IDS,
  LinkedInContentSchema,
  PLATFORMS,
  channelOfVersion,
  type Platform,
} from '../src/index.js';

/** The content schema the API checks each version's text with (shared/src/articles.ts). */
const CONTENT_SCHEMA: Record<Platform, typeof BlogContentSchema> = {
  blog: BlogContentSchema,
  linkedin: LinkedInContentSchema,
};

describe('shared/src/channels.ts', () => {
  it('one channel publishes each version, and the ids are unique', () => {
    expect(PLATFORMS.map((version) => channelOfVersion(version).version)).toEqual([...PLATFORMS]);
    expect(new Set(CHANNEL_IDS).size).toBe(CHANNELS.length);
  });

  it.each(CHANNELS.map((channel) => [channel.id, channel] as const))(
    "%s: the editor's limit is the one the API checks, counted the same way",
    (_id, channel) => {
      const schema = CONTENT_SCHEMA[channel.version]();
      if (!channel.textLimit) return;
      const { max } = channel.textLimit;
      expect(schema.safeParse({ content: 'a'.repeat(max) }).success).toBe(true);
      expect(schema.safeParse({ content: 'a'.repeat(max + 1) }).success).toBe(false);
      // Code points: an emoji (two UTF-16 units) is one.
      expect(schema.safeParse({ content: '😀'.repeat(max) }).success).toBe(true);
      expect(schema.safeParse({ content: '😀'.repeat(max + 1) }).success).toBe(false);
    },
  );
});
