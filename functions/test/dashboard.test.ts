import { dashboardFromArticles, needsAttention, type Article } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPages, Client, drafted, registration, startTestApp, type TestApp } from './helpers/app.js';
import { channelIds } from '../src/channels/registry.js';

/**
 * GET /api/dashboard on the local stack: the summary item maintained by the article writes (in the same
 * transaction) gives the cards the full list gives, in the asked zone, after creations and publications.
 */
let app: TestApp;
let owner: Client;
let ownerId: string;

beforeAll(async () => {
  app = await startTestApp();
  owner = new Client(app.url);
  ownerId = (await owner.call('/api/auth/register', { body: registration({ timezone: 'Asia/Kathmandu' }) })).json.user
    ._id;
});
afterAll(() => app?.stop());

const allArticles = async () => (await allPages(owner, '/api/articles')) as Article[];

/** What the dashboard showed from the full list (the reference), next to what GET /api/dashboard answers. */
async function compare(timeZone?: string) {
  const answer = (await owner.call(`/api/dashboard${timeZone ? `?timeZone=${encodeURIComponent(timeZone)}` : ''}`))
    .json;
  const articles = await allArticles();
  const zone = timeZone ?? 'Asia/Kathmandu';
  expect(answer).toEqual({
    timeZone: zone,
    ...dashboardFromArticles(articles, zone, new Date(), channelIds),
    attention: needsAttention(articles.map((a) => ({ ...a, id: a._id }))),
  });
  return answer;
}

/** A publication as domain/publishing.ts records it (the flag, the time and the post's address). */
async function publish(id: string, platform: 'blog' | 'linkedin', at: string) {
  const { deps } = await import('../src/wiring/deps.js');
  const { DynamoArticleStore } = await import('../src/adapters/dynamo/article-store.js');
  const store = new DynamoArticleStore(deps().db, deps().config.tableName);
  const changes =
    platform === 'blog'
      ? { 'blog.publishedToWordPress': true, 'blog.lastPublished': at, 'blog.wordpressPostUrl': 'https://wp/1' }
      : {
          'linkedin.publishedToLinkedIn': true,
          'linkedin.lastPublished': at,
          'linkedin.linkedinPostUrl': 'https://li/1',
        };
  expect(await store.update(ownerId, id, changes)).toBeDefined();
}

describe('GET /api/dashboard', () => {
  it('answers the cards of the full list, from the summary kept with every write', async () => {
    // An empty account: the demo keywords, zero everywhere.
    const empty = await compare();
    expect(empty).toMatchObject({ total: 0, keywords: { demo: true } });

    const ids: string[] = [];
    for (const [title, keyword] of [
      ['One', 'serverless costs'],
      ['Two', 'AI'],
      ['Three', 'serverless'],
    ] as const) {
      const id = (await owner.call('/api/articles', { body: { title, topic: 'Dashboards', keyword } })).json.article
        ._id as string;
      await drafted(owner, id);
      ids.push(id);
    }
    await compare();

    // Published at once on several articles (the summary's writes meet), one of them on both platforms.
    const now = Date.now();
    await Promise.all([
      publish(ids[0]!, 'blog', new Date(now - 60_000).toISOString()),
      publish(ids[0]!, 'linkedin', new Date(now - 8 * 86_400_000).toISOString()),
      publish(ids[1]!, 'blog', new Date(now).toISOString()),
    ]);
    const answer = await compare();
    expect(answer.total).toBe(3);
    expect(answer.distribution.total).toBe(3);
    // Published on one platform and not scheduled on the other counts as published too (shared/src/status.ts).
    expect(answer.status.find((s: { status: string }) => s.status === 'published').count).toBe(2);
    // The weeks of another zone, from the same summary.
    await compare('Asia/Kolkata');
    await compare('America/Los_Angeles');
  });

  it('counts a post of a channel of `posts` (Ghost) for that channel, not as a WordPress one', async () => {
    const id = (await owner.call('/api/articles', { body: { title: 'On Ghost', topic: 'Dashboards' } })).json.article
      ._id as string;
    await drafted(owner, id);
    const before = (await owner.call('/api/dashboard')).json;
    const count = (answer: any, channel: string) =>
      answer.distribution.bars.find((b: { channel: string }) => b.channel === channel)?.count ?? 0;
    const { deps } = await import('../src/wiring/deps.js');
    const { DynamoArticleStore } = await import('../src/adapters/dynamo/article-store.js');
    const store = new DynamoArticleStore(deps().db, deps().config.tableName);
    const at = new Date().toISOString();
    // As the Ghost channel records its post (functions/src/channels/ghost/channel.ts).
    await store.update(ownerId, id, {
      posts: { ghost: { id: 'g1', url: 'https://ghost.example/p/', publishedAt: at } },
    });
    const answer = await compare();
    // A bar per channel of the registry, in its order.
    expect(answer.distribution.bars.map((b: { channel: string }) => b.channel)).toEqual(channelIds);
    expect(count(answer, 'ghost')).toBe(count(before, 'ghost') + 1);
    expect(count(answer, 'wordpress')).toBe(count(before, 'wordpress'));
    expect(answer.distribution.total).toBe(before.distribution.total + 1);
    expect(answer.trends.at(-1).counts.ghost).toBe(1);
  });

  it('refuses an unknown zone', async () => {
    const res = await owner.call('/api/dashboard?timeZone=Mars%2FOlympus');
    expect(res.status).toBe(400);
  });
});
