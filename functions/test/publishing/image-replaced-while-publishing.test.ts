/**
 * A publish that read the article just before its image was replaced: the image change points the
 * article at the new image and then deletes the old files (replaceImage, functions/src/domain/images.ts),
 * so the file the publish looks for may be gone. It must then send the newest image, not go out without one.
 * PublishingService with the real article store (DynamoDB Local), the real replaceImage and the fake WordPress.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoArticleStore } from '../../src/adapters/dynamo/article-store.js';
import { createDocumentClient } from '../../src/adapters/dynamo/client.js';
import { HttpWordPressPublisher } from '../../src/channels/wordpress/publish.js';
import { newArticleId, type ArticleRecord, type StoredImage } from '../../src/domain/articles.js';
import { replaceImage } from '../../src/domain/images.js';
import type { ObjectStore } from '../../src/domain/ports.js';
import { PublishingService } from '../../src/domain/publishing.js';
import type { SettingService } from '../../src/domain/settings.js';
import type { WordPressService } from '../../src/channels/wordpress/service.js';
import { imagePreviewPath } from '../../src/http/article-view.js';
import { ensureTable } from '../../src/local/dynamo.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from '../fakes/wordpress.js';
import { PNG } from './helpers.js';

/** A PNG the fake tells apart from PNG by its IHDR size (4×5 instead of 2×3). */
const NEWER_PNG = Buffer.from(PNG);
NEWER_PNG.writeUInt32BE(4, 16);
NEWER_PNG.writeUInt32BE(5, 20);

const userId = `user-${randomBytes(4).toString('hex')}`;
let wp: FakeWordPress;
let store: DynamoArticleStore;

beforeAll(async () => {
  wp = await startFakeWordPress();
  const tableName = `image-replaced-${randomBytes(4).toString('hex')}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  store = new DynamoArticleStore(
    createDocumentClient({ region: 'us-east-1', dynamoEndpoint: inject('dynamoEndpoint') }),
    tableName,
  );
});
afterAll(() => wp?.stop());

const storedImage = (name: string): StoredImage => ({
  blogKey: `users/${userId}/${name}-blog.png`,
  linkedinKey: `users/${userId}/${name}-linkedin.png`,
  contentType: 'image/png',
  description: name,
  generatedAt: new Date().toISOString(),
});

/** An in-memory store whose first read of `raceKey` lets `beforeRead` run first (the image change landing). */
function racingObjects(raceKey: string, beforeRead: () => Promise<void>) {
  const files = new Map<string, Buffer>();
  let raced = false;
  const objects: ObjectStore = {
    get: async (key) => {
      if (key === raceKey && !raced) {
        raced = true;
        await beforeRead();
      }
      const body = files.get(key);
      return body ? { body, contentType: 'image/png' } : undefined;
    },
    put: async (key, body) => void files.set(key, body),
    delete: async (key) => void files.delete(key),
  };
  return { files, objects };
}

async function newArticle(image: StoredImage): Promise<string> {
  const at = new Date().toISOString();
  const id = newArticleId();
  const article: ArticleRecord = {
    id,
    userId,
    title: 'Replaced meanwhile',
    topic: 'Images',
    keyword: 'image',
    details: '',
    imageDescription: '',
    tags: [],
    createdAt: at,
    updatedAt: at,
    blog: { content: '# Replaced\n\nBody.', publishedToWordPress: false, lastPublished: null, wordpressPostUrl: null },
    linkedin: { content: 'Post.', publishedToLinkedIn: false, lastPublished: null, linkedinPostUrl: null },
    scheduled: { blog: null, linkedin: null },
    lastError: null,
    linkedInMode: 'personal',
    generation: { status: 'done', updatedAt: at },
    image,
    imageJob: null,
    publishClaims: {},
  };
  await store.put(article);
  return id;
}

const service = (objects: ObjectStore) =>
  new PublishingService({
    articles: store,
    objects,
    settings: { values: async () => new Map() } as unknown as SettingService,
    wordpress: {
      stored: async () => ({
        siteUrl: wp.url,
        username: FAKE_WP_EDITOR.username,
        appPassword: FAKE_WP_EDITOR.appPassword,
        apiStyle: 'pretty',
      }),
    } as unknown as WordPressService,
    wordpressPublisher: new HttpWordPressPublisher({ allowPrivateUrls: true }),
    linkedinPublisher: {} as never,
    imageUrl: imagePreviewPath,
  });

describe('an image replaced while publishing', () => {
  it('the old file deleted between reading the article and reading the file: the newest image is the featured one', async () => {
    const older = storedImage('older');
    const newer = storedImage('newer');
    let id = '';
    const { files, objects } = racingObjects(older.blogKey, async () => {
      files.set(newer.blogKey, NEWER_PNG);
      files.set(newer.linkedinKey, NEWER_PNG);
      await replaceImage({ articles: store, objects }, { userId, articleId: id, next: newer });
    });
    files.set(older.blogKey, PNG);
    files.set(older.linkedinKey, PNG);
    id = await newArticle(older);

    await service(objects).publishWordPress(userId, id);

    expect(files.has(older.blogKey)).toBe(false); // the race did happen
    const post = wp.posts.at(-1)!;
    const media = wp.media.find((m) => m.id === post.featuredMedia);
    expect(media?.bytes.equals(NEWER_PNG)).toBe(true);
  });

  it('a file missing with no newer image (lost, not replaced) still publishes, without an image', async () => {
    const lost = storedImage('lost');
    const { objects } = racingObjects('none', async () => undefined);
    const id = await newArticle(lost);

    const { link } = await service(objects).publishWordPress(userId, id);

    expect(link).toBeTruthy();
    expect(wp.posts.at(-1)!.featuredMedia).toBe(0);
  });
});
