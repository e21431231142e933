/**
 * Two channels whose posts are kept in the article's `posts` map (Ghost and Bluesky) publishing the same article at
 * once: each writes its own entry (`posts.<channel>`), so neither overwrites the other's. PublishingService with the
 * real article store (DynamoDB Local) and the real channels, their clients answering in memory; both publishes have
 * read the article before either writes (a barrier in the clients), which is the race.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoArticleStore } from '../../src/adapters/dynamo/article-store.js';
import { createDocumentClient } from '../../src/adapters/dynamo/client.js';
import { blueskyChannel, BLUESKY_KEYS } from '../../src/channels/bluesky/channel.js';
import type { BlueskyClient } from '../../src/channels/bluesky/port.js';
import type { PublishChannel } from '../../src/channels/channel.js';
import { ghostChannel, GHOST_KEYS } from '../../src/channels/ghost/channel.js';
import type { GhostChannelClient, GhostPostInput } from '../../src/channels/ghost/client.js';
import { newArticleId } from '../../src/domain/articles.js';
import { PublishingService } from '../../src/domain/publishing.js';
import { imagePreviewPath } from '../../src/http/article-view.js';
import { ensureTable } from '../../src/local/dynamo.js';
import { articleRecord } from '../helpers/article-record.js';

const userId = `user-${randomBytes(4).toString('hex')}`;
let store: DynamoArticleStore;

beforeAll(async () => {
  const tableName = `posts-per-channel-${randomBytes(4).toString('hex')}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  store = new DynamoArticleStore(
    createDocumentClient({ region: 'us-east-1', dynamoEndpoint: inject('dynamoEndpoint') }),
    tableName,
  );
});

const saved = new Map<string, string>([
  [GHOST_KEYS.siteUrl, 'https://ghost.example.com'],
  [GHOST_KEYS.adminApiKey, `${'a1'.repeat(12)}:${'0f'.repeat(32)}`],
  [BLUESKY_KEYS.handle, 'writer.example.com'],
  [BLUESKY_KEYS.appPassword, 'abcd-efgh-ijkl-mnop'],
]);
const settings = {
  values: async (_user: string, keys: string[]) =>
    new Map(keys.flatMap((k) => (saved.has(k) ? [[k, saved.get(k)!] as const] : []))),
  put: async () => undefined,
  remove: async () => undefined,
  updatedAt: async () => null,
};

/** Resolves each caller once `count` callers are waiting. */
function barrier(count: number) {
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  let waiting = 0;
  return () => {
    if (++waiting === count) release();
    return all;
  };
}

function channels(arrive: () => Promise<void>): Record<string, PublishChannel> {
  const ghost = {
    testConnection: async () => ({ title: 'Blog', url: 'https://ghost.example.com', version: '6.0' }),
    uploadImage: async () => ({ url: 'https://ghost.example.com/content/images/x.png' }),
    findPost: async () => undefined,
    publishPost: async (_c: unknown, post: GhostPostInput) => {
      await arrive();
      return {
        id: 'ghost-1',
        slug: post.slug,
        url: `https://ghost.example.com/${post.slug}/`,
        status: 'published',
        title: post.title,
        featureImage: null,
        tags: [],
      };
    },
  } as unknown as GhostChannelClient;
  const bluesky: BlueskyClient = {
    testConnection: async () => ({ ok: true, did: 'did:plc:x', handle: 'writer.example.com' }),
    uploadImage: async () => {
      throw new Error('no image in this test');
    },
    findPost: async () => undefined,
    publishPost: async (_c, post) => {
      await arrive();
      return {
        uri: `at://did:plc:x/app.bsky.feed.post/${post.rkey}`,
        cid: 'cid',
        url: `https://bsky.app/profile/writer.example.com/post/${post.rkey}`,
        existed: false,
      };
    },
  };
  return {
    ghost: ghostChannel({ settings, client: ghost }) as PublishChannel,
    bluesky: blueskyChannel({ settings, client: bluesky }) as PublishChannel,
  };
}

describe('posts per channel', () => {
  it('Ghost and Bluesky publishing the same article at once both keep their post', async () => {
    const id = newArticleId();
    await store.put(
      articleRecord({
        id,
        userId,
        blog: { ...articleRecord().blog, content: '# Both\n\nBody.' },
        versions: { bluesky: { content: 'Both at once #test' } },
      }),
    );
    const byId = channels(barrier(2));
    const service = new PublishingService({
      articles: store,
      objects: { get: async () => undefined, put: async () => undefined, delete: async () => undefined },
      channel: async (channelId) => byId[channelId]!,
      imageUrl: imagePreviewPath,
    });

    await Promise.all([service.publish('ghost', userId, id), service.publish('bluesky', userId, id)]);

    const article = await store.get(userId, id);
    expect(Object.keys(article?.posts ?? {}).sort()).toEqual(['bluesky', 'ghost']);
    expect(article?.posts?.ghost?.url).toMatch(/^https:\/\/ghost\.example\.com\//);
    expect(article?.posts?.bluesky?.url).toMatch(/^https:\/\/bsky\.app\//);
  });
});
