/**
 * A publish killed mid-way (the function stopped by its timeout, or crashed) after the platform
 * made the post, followed by a retry, makes one post. The killed publish runs in a second server
 * process on the same table (helpers/second-server.ts) and gets SIGKILL once the fake platform has
 * made the post but not answered; its claim and attempt note stay behind, as a killed function
 * leaves them. The retry goes to the test app.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoArticleStore } from '../src/adapters/dynamo/article-store.js';
import { approvalNotifier } from '../src/wiring/approval-notifier.js';
import { PUBLISH_CLAIM_STALE_MS } from '../src/time-budgets.js';
import { parseMime } from './fakes/mime.js';
import { startFakeLinkedIn, type FakeLinkedIn } from './fakes/linkedin.js';
import { FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from './fakes/wordpress.js';
import {
  Client,
  completeOAuth,
  draftedForPublishing,
  imageSettled,
  registration,
  startTestApp,
  waitUntil,
  type TestApp,
} from './helpers/app.js';
import { startSecondServer, type SecondServer } from './helpers/second-server.js';

let app: TestApp;
let wp: FakeWordPress;
let li: FakeLinkedIn;
let user: Client;
let userId: string;
let store: DynamoArticleStore;

beforeAll(async () => {
  [wp, li] = await Promise.all([startFakeWordPress(), startFakeLinkedIn()]);
  process.env.LINKEDIN_OAUTH_URL = li.oauthUrl;
  process.env.LINKEDIN_API_URL = li.apiUrl;
  app = await startTestApp();
  user = new Client(app.url);
  userId = (await user.call('/api/auth/register', { body: registration() })).json.user._id;
  await user.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
  await user.call('/api/linkedin/credentials', {
    body: { clientId: li.app.clientId, clientSecret: li.app.clientSecret },
  });
  const { authUrl } = (await user.call('/api/linkedin/auth-url')).json;
  expect((await completeOAuth(user, authUrl)).location).toBe('/settings?linkedin_connected=true');
  store = new DynamoArticleStore(
    DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: inject('dynamoEndpoint'),
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
      { marshallOptions: { removeUndefinedValues: true } },
    ),
    app.tableName,
  );
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([wp?.stop(), li?.stop()]);
});

async function newArticle(title: string) {
  const id = (
    await user.call('/api/articles', { body: { title, topic: 'Publishing that survives a kill', keyword: 'retries' } })
  ).json.article._id as string;
  await draftedForPublishing(user, id);
  await user.call(`/api/image/generate/${id}`, { body: { description: 'a printing press' } });
  await imageSettled(user, id);
  return id;
}

/**
 * Sends `path` to a second server and kills it once `made` holds (the platform made the post and
 * holds its answer): the request never gets an answer, and nothing after it runs.
 */
async function killedMidPublish(path: string, body: unknown, made: () => boolean): Promise<void> {
  const second: SecondServer = await startSecondServer(app);
  const client = new Client(second.url);
  client.cookie = user.cookie;
  const request = client.call(path, { method: 'POST', body }).then(
    () => 'answered',
    () => 'no answer',
  );
  try {
    await waitUntil(async () => made(), Boolean, 'the post on the platform');
  } finally {
    await second.kill();
  }
  expect(await request).toBe('no answer');
}

/** What the platform's claim looks like once PUBLISH_CLAIM_STALE_MS have passed since the killed publish took it. */
async function claimGoesStale(id: string, platform: 'blog' | 'linkedin') {
  const article = await store.get(userId, id);
  expect(article?.publishClaims?.[platform]).toBeDefined(); // the killed publish could not release it
  await store.update(userId, id, {
    [`publishClaims.${platform}.at`]: new Date(Date.now() - PUBLISH_CLAIM_STALE_MS - 1000).toISOString(),
  });
}

describe('a publish killed after the platform made the post, then retried', () => {
  it('WordPress: the retry finds the post by its slug and updates it: one post, recorded on the article', async () => {
    const id = await newArticle('Killed on WordPress');
    const mine = () => wp.posts.filter((p) => p.title === 'Killed on WordPress');
    wp.holdAnswer = (r) => (r.method === 'POST' && r.route === '/wp/v2/posts' ? 'never' : undefined);
    try {
      await killedMidPublish(`/api/wordpress/publish/${id}`, undefined, () => mine().length === 1);
    } finally {
      delete wp.holdAnswer;
    }

    // While the killed publish's claim is fresh, nothing else publishes.
    const early = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(early.status).toBe(409);
    expect(early.json.code).toBe('publish_in_progress');

    await claimGoesStale(id, 'blog');
    const retry = await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' });
    expect(retry.status).toBe(200);
    expect(mine()).toHaveLength(1);
    const post = mine()[0]!;
    expect(retry.json.post.link).toContain(`/${post.slug}/`);
    expect(
      wp.requests.some((r) => r.method === 'GET' && r.route === '/wp/v2/posts' && r.path.includes(`slug=${post.slug}`)),
    ).toBe(true);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.blog).toMatchObject({ publishedToWordPress: true, wordpressPostUrl: retry.json.post.link });
    expect((await store.get(userId, id))?.wordpressPostId).toBe(post.id);

    // And later publishes keep updating that one post.
    expect((await user.call(`/api/wordpress/publish/${id}`, { method: 'POST' })).status).toBe(200);
    expect(mine()).toHaveLength(1);
  }, 60_000);

  it('LinkedIn: the retry sends the same post again, LinkedIn answers that it has it: one post, recorded on the article', async () => {
    const id = await newArticle('Killed on LinkedIn');
    await user.call(`/api/articles/${id}/linkedin`, {
      method: 'PUT',
      body: { content: 'A post that survives a kill (really).' },
    });
    const mine = () => li.posts.filter((p) => p.body.commentary === 'A post that survives a kill \\(really\\).');
    li.holdAnswer = (r) => (r.method === 'POST' && r.path === '/rest/posts' ? 'never' : undefined);
    try {
      await killedMidPublish(`/api/linkedin/publish/${id}`, undefined, () => mine().length === 1);
    } finally {
      delete li.holdAnswer;
    }
    // Edited after the killed attempt: the retry still finishes the post that went out.
    await user.call(`/api/articles/${id}/linkedin`, { method: 'PUT', body: { content: 'Edited afterwards.' } });

    await claimGoesStale(id, 'linkedin');
    const retry = await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' });
    expect(retry.status).toBe(200);
    expect(mine()).toHaveLength(1);
    expect(li.posts.filter((p) => p.body.commentary === 'Edited afterwards.')).toHaveLength(0);
    const post = mine()[0]!;
    expect(post.body.content.media.id).toMatch(/^urn:li:image:/);
    expect(retry.json.post.url).toBe(`https://www.linkedin.com/feed/update/${post.urn}`);
    const article = (await user.call(`/api/articles/${id}`)).json.article;
    expect(article.linkedin).toMatchObject({ publishedToLinkedIn: true, linkedinPostUrl: retry.json.post.url });
    expect((await user.call(`/api/linkedin/publish/${id}`, { method: 'POST' })).status).toBe(409);
    expect(mine()).toHaveLength(1);
  }, 60_000);

  it('an approval link whose publish was killed is not spent: confirming again publishes, once', async () => {
    const id = await newArticle('Killed approval');
    const at = new Date(Date.now() + 3600_000).toISOString();
    await user.call(`/api/articles/${id}/schedule`, { method: 'PUT', body: { platform: 'blog', datetime: at } });
    expect(
      await approvalNotifier().generateAndNotify({ userId, articleId: id, platform: 'blog', scheduledFor: at }),
    ).toBe('sent');
    const outbox = join(app.dataDir, 'outbox');
    const mail = parseMime(
      readFileSync(
        join(
          outbox,
          readdirSync(outbox)
            .filter((f) => f.endsWith('.eml'))
            .sort()
            .at(-1)!,
        ),
        'utf8',
      ),
    );
    const token = decodeURIComponent(/\/approve\?token=([A-Za-z0-9._%-]+)/.exec(mail.text ?? '')![1]!);

    const mine = () => wp.posts.filter((p) => p.title === 'Killed approval');
    wp.holdAnswer = (r) => (r.method === 'POST' && r.route === '/wp/v2/posts' ? 'never' : undefined);
    try {
      await killedMidPublish('/api/approvals/confirm', { token }, () => mine().length === 1);
    } finally {
      delete wp.holdAnswer;
    }
    await claimGoesStale(id, 'blog');
    const anonymous = new Client(app.url);
    const again = await anonymous.call('/api/approvals/confirm', { body: { token } });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ success: true, platform: 'blog' });
    expect(mine()).toHaveLength(1);
    // Now it is used (and publishing dropped the later schedule it was for).
    const third = await anonymous.call('/api/approvals/confirm', { body: { token } });
    expect(third.status).toBe(409);
    expect(['already_approved', 'outdated_approval']).toContain(third.json.code);
    expect(mine()).toHaveLength(1);
  }, 60_000);
});
