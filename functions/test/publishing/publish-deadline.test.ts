/**
 * PublishingService with the real adapters, DynamoDB Local and the fake WordPress and LinkedIn:
 * one publish ends by its deadline whatever the platform does, says whether the post may exist,
 * and the attempt after it never makes a second post. (The deadline is short here; in AWS it is
 * PUBLISH_DEADLINE_MS, within the API function's timeout: functions/test/time-budgets.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { DynamoArticleStore } from '../../src/adapters/dynamo/article-store.js';
import { HttpLinkedInPublisher } from '../../src/channels/linkedin/publish.js';
import { HttpWordPressPublisher } from '../../src/channels/wordpress/publish.js';
import { newArticleId, type ArticleRecord } from '../../src/domain/articles.js';
import { DomainError, UpstreamTimeoutError } from '../../src/domain/errors.js';
import { LI_KEYS } from '../../src/channels/linkedin/service.js';
import { PublishingService } from '../../src/domain/publishing.js';
import type { SettingService } from '../../src/domain/settings.js';
import type { WordPressService } from '../../src/channels/wordpress/service.js';
import { imagePreviewPath } from '../../src/http/article-view.js';
import { ensureTable } from '../../src/local/dynamo.js';
import { PUBLISH_CLAIM_STALE_MS } from '../../src/time-budgets.js';
import { startFakeLinkedIn, type FakeLinkedIn } from '../fakes/linkedin.js';
import {
  FAKE_WP_CONTRIBUTOR,
  FAKE_WP_EDITOR,
  startFakeWordPress,
  type FakeWordPress,
  type FakeWpUser,
} from '../fakes/wordpress.js';
import { PNG } from './helpers.js';

// Long enough that the steps before the post (lookup, media upload) never use it up on a busy CI machine.
const DEADLINE_MS = 5000;
const userId = `user-${randomBytes(4).toString('hex')}`;
let wp: FakeWordPress;
let li: FakeLinkedIn;
let store: DynamoArticleStore;
let token: string;
let wpUser: FakeWpUser = FAKE_WP_EDITOR;

beforeAll(async () => {
  [wp, li] = await Promise.all([startFakeWordPress(), startFakeLinkedIn()]);
  token = li.issueToken();
  const tableName = `publish-deadline-${randomBytes(4).toString('hex')}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  store = new DynamoArticleStore(
    DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: inject('dynamoEndpoint'),
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
      { marshallOptions: { removeUndefinedValues: true } },
    ),
    tableName,
  );
});
afterAll(() => Promise.all([wp?.stop(), li?.stop()]));
beforeEach(() => {
  wp.reset();
  li.reset();
  wpUser = FAKE_WP_EDITOR;
});

const service = (deadlineMs = DEADLINE_MS) =>
  new PublishingService({
    articles: store,
    objects: {
      get: async () => ({ body: PNG, contentType: 'image/png' }),
      put: async () => undefined,
      delete: async () => undefined,
    },
    settings: {
      values: async () =>
        new Map([
          [LI_KEYS.accessToken, token],
          [LI_KEYS.memberId, li.member.sub],
        ]),
    } as unknown as SettingService,
    wordpress: {
      stored: async () => ({
        siteUrl: wp.url,
        username: wpUser.username,
        appPassword: wpUser.appPassword,
        apiStyle: 'pretty',
      }),
    } as unknown as WordPressService,
    wordpressPublisher: new HttpWordPressPublisher({ allowPrivateUrls: true }),
    linkedinPublisher: new HttpLinkedInPublisher({ apiUrl: li.apiUrl, imagePollMs: 20, imageGraceMs: 20 }),
    imageUrl: imagePreviewPath,
    deadlineMs,
  });

async function newArticle(title: string, withImage = true): Promise<string> {
  const at = new Date().toISOString();
  const id = newArticleId();
  const article: ArticleRecord = {
    id,
    userId,
    title,
    topic: 'Deadlines',
    keyword: 'deadline',
    details: '',
    imageDescription: '',
    tags: [],
    createdAt: at,
    updatedAt: at,
    blog: { content: `# ${title}\n\nBody.`, publishedToWordPress: false, lastPublished: null, wordpressPostUrl: null },
    linkedin: {
      content: `${title}: the post.`,
      publishedToLinkedIn: false,
      lastPublished: null,
      linkedinPostUrl: null,
    },
    scheduled: { blog: null, linkedin: null },
    lastError: null,
    linkedInMode: 'personal',
    generation: { status: 'done', updatedAt: at },
    image: withImage
      ? { blogKey: 'b.png', linkedinKey: 'l.png', contentType: 'image/png', description: 'x', generatedAt: at }
      : null,
    imageJob: null,
    publishClaims: {},
  };
  await store.put(article);
  return id;
}

async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

async function claimGoesStale(id: string, platform: 'blog' | 'linkedin') {
  await store.update(userId, id, {
    [`publishClaims.${platform}.at`]: new Date(Date.now() - PUBLISH_CLAIM_STALE_MS - 1000).toISOString(),
  });
}

describe('WordPress', () => {
  it('a post WordPress saved but never answered: the publish ends at its deadline, says it may be online and keeps the claim; the retry updates that post', async () => {
    const id = await newArticle('Saved, no answer');
    wp.holdAnswer = (r) => (r.method === 'POST' && r.route === '/wp/v2/posts' ? 'never' : undefined);
    const started = Date.now();
    const err = await failure(service().publishWordPress(userId, id));
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1000);
    expect(err).toBeInstanceOf(UpstreamTimeoutError);
    expect(err).toMatchObject({ kind: 'upstream_timeout', code: 'publish_timeout' });
    expect(err.message).toBe(
      'WordPress did not answer in time, so the post may or may not be online. Try again in a minute: publishing looks for this post on WordPress first, so it is never published twice.',
    );
    expect(wp.posts).toHaveLength(1);
    const post = wp.posts[0]!;
    const after = (await store.get(userId, id))!;
    expect(after.lastError).toEqual({ code: 'publish_timeout', message: err.message });
    expect(after.publishAttempts?.blog?.slug).toBe(post.slug);
    expect(post.slug).toMatch(new RegExp(`^saved-no-answer-${id.slice(-10)}$`));

    // The claim stays while WordPress may still be busy with the request…
    delete wp.holdAnswer;
    expect(await failure(service().publishWordPress(userId, id))).toMatchObject({
      kind: 'conflict',
      code: 'publish_in_progress',
    });
    // …and the retry after it looks the post up and updates it.
    await claimGoesStale(id, 'blog');
    const retry = await service().publishWordPress(userId, id);
    expect(wp.posts).toHaveLength(1);
    expect(retry.article).toMatchObject({ wordpressPostId: post.id, lastError: null, publishAttempts: { blog: null } });
    expect(retry.link).toContain(`/${post.slug}/`);
    expect(wp.requests.filter((r) => r.method === 'POST' && r.route === '/wp/v2/posts')).toHaveLength(1);
    expect(wp.requests.some((r) => r.method === 'POST' && r.route === `/wp/v2/posts/${post.id}`)).toBe(true);
  });

  it('a step that cannot finish by the deadline stops the publish before the post is sent: nothing published, the claim released, a retry publishes once', async () => {
    const id = await newArticle('Slow upload');
    wp.holdAnswer = (r) => (r.route === '/wp/v2/media' ? 'never' : undefined);
    const started = Date.now();
    const err = await failure(service().publishWordPress(userId, id));
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1000);
    expect(err).toMatchObject({ kind: 'upstream_timeout', code: 'publish_timeout' });
    expect(err.message).toBe(
      'WordPress did not answer in time, so publishing stopped before the post was sent: nothing was published. The article is kept; try again.',
    );
    expect(wp.posts).toHaveLength(0);
    expect((await store.get(userId, id))!.publishAttempts?.blog).toBeUndefined();
    delete wp.holdAnswer;
    await service().publishWordPress(userId, id);
    expect(wp.posts).toHaveLength(1);
  });

  it('a post WordPress refused leaves nothing to look for: the note is forgotten', async () => {
    const id = await newArticle('Refused', false);
    wpUser = FAKE_WP_CONTRIBUTOR; // may not publish: 403 rest_cannot_publish
    expect(await failure(service().publishWordPress(userId, id))).toMatchObject({
      kind: 'upstream',
      code: 'wordpress_permission',
    });
    expect((await store.get(userId, id))!.publishAttempts?.blog).toBeUndefined();
    wpUser = FAKE_WP_EDITOR;
    await service().publishWordPress(userId, id);
    expect(wp.requests.filter((r) => r.method === 'GET' && r.route === '/wp/v2/posts')).toHaveLength(0);
    expect(wp.posts).toHaveLength(1);
  });

  it('a publish whose claim was taken over meanwhile does not send its post', async () => {
    const id = await newArticle('Taken over');
    wp.holdAnswer = (r) => (r.route === '/wp/v2/media' ? 1500 : undefined);
    const slow = service(10_000).publishWordPress(userId, id);
    await new Promise((r) => setTimeout(r, 300)); // the upload is under way
    delete wp.holdAnswer;
    await claimGoesStale(id, 'blog');
    await service().publishWordPress(userId, id);
    expect(await failure(slow)).toMatchObject({ kind: 'conflict', code: 'publish_in_progress' });
    expect(wp.posts).toHaveLength(1);
  });
});

describe('LinkedIn', () => {
  it('a post LinkedIn made but never answered: the publish ends at its deadline; the retry sends the same post and records the one LinkedIn has', async () => {
    const id = await newArticle('No answer from LinkedIn');
    li.holdAnswer = (r) => (r.method === 'POST' && r.path === '/rest/posts' ? 'never' : undefined);
    const started = Date.now();
    const err = await failure(service().publishLinkedIn(userId, id));
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1000);
    expect(err).toMatchObject({ kind: 'upstream_timeout', code: 'publish_timeout' });
    expect(err.message).toMatch(
      /^LinkedIn did not answer in time, so the post may or may not be on LinkedIn\. Try again in a minute/,
    );
    expect(li.posts).toHaveLength(1);
    const post = li.posts[0]!;
    expect((await store.get(userId, id))!.publishAttempts?.linkedin?.post).toEqual({
      author: `urn:li:person:${li.member.sub}`,
      commentary: post.body.commentary,
      imageUrn: post.body.content.media.id,
    });

    delete li.holdAnswer;
    await claimGoesStale(id, 'linkedin');
    const retry = await service().publishLinkedIn(userId, id);
    expect(li.posts).toHaveLength(1);
    expect(li.images).toHaveLength(1); // the same image, not uploaded again
    expect(retry.url).toBe(`https://www.linkedin.com/feed/update/${post.urn}`);
    expect(retry.article).toMatchObject({
      linkedinPostUrn: post.urn,
      linkedin: { publishedToLinkedIn: true },
      publishAttempts: { linkedin: null },
    });
  });

  it('LinkedIn refusing a post as a duplicate answers the post it has', async () => {
    const id = await newArticle('Posted by hand');
    await service(10_000).publishLinkedIn(userId, await newArticle('Posted by hand'));
    const [first] = li.posts;
    const second = await service(10_000).publishLinkedIn(userId, id);
    expect(li.posts).toHaveLength(1);
    expect(second.url).toBe(`https://www.linkedin.com/feed/update/${first!.urn}`);
  });
});
