/**
 * The Bluesky channel through the generic channel routes (`channels.*`, functions/src/http/channels.ts), over
 * DynamoDB Local, publishing to a REAL PDS (channel-servers/atproto/pds.ts; docs/testing.md, Channel servers): what
 * the app posted is read back from the PDS with com.atproto.repo.getRecord. Without a PDS (and without
 * REQUIRE_CHANNEL_SERVERS=1) the tests that need it skip with one line saying why.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, type TestContext } from 'vitest';
import { OUTBOX_ITEM_TYPE } from '../src/adapters/dynamo/event-outbox.js';
import { CredentialMessages } from '../src/channels/bluesky/credentials.js';
import { postRecordKey } from '../src/channels/bluesky/text.js';
import { atprotoPdsOrSkip, type ChannelServer } from './channel-servers/atproto/pds.js';
import { pdsAccount, xrpc as callXrpc, type PdsAccount, type XrpcInit } from './channel-servers/atproto/xrpc.js';
import { Client, registration, startTestApp, type TestApp, publishableArticle } from './helpers/app.js';
import { trackSecret } from './helpers/secrets.js';

let app: TestApp;
let pds: ChannelServer | undefined;
let user: Client;
let stranger: Client;
const db = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: inject('dynamoEndpoint'),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
);

const xrpc = (nsid: string, init: XrpcInit = {}) => callXrpc(pds!, nsid, init);

type Account = PdsAccount;

/** An account on the PDS and an app password for it, as a person makes them in the app. */
const account = (name: string): Promise<Account> => pdsAccount(pds!, name, trackSecret);

async function postsOf(did: string): Promise<{ uri: string; value: any }[]> {
  const list = await xrpc('com.atproto.repo.listRecords', {
    query: { repo: did, collection: 'app.bsky.feed.post', limit: '100' },
  });
  expect(list.status).toBe(200);
  return list.json.records;
}

const newArticle = (title: string, withImage = true) =>
  publishableArticle(user, title, { topic: 'Publishing to Bluesky', keyword: 'channel tests' }, withImage);

/** The article's item in the table (its key), as the store keeps it. */
async function articleKey(id: string): Promise<{ PK: string; SK: string }> {
  const item = (await app.items()).find((i) => i.SK === `ARTICLE#${id}`);
  expect(item, `article ${id}`).toBeDefined();
  return { PK: item!.PK as string, SK: item!.SK as string };
}

/** Sets fields of the article's item directly (what an earlier attempt or a later step would have written). */
async function setArticle(id: string, fields: Record<string, unknown>) {
  // a dotted name is a path into a map (`blog.wordpressPostUrl`)
  const paths = Object.keys(fields).map((name) => name.split('.'));
  const parts = [...new Set(paths.flat())];
  const ref = (part: string) => `#p${parts.indexOf(part)}`;
  await db.send(
    new UpdateCommand({
      TableName: app.tableName,
      Key: await articleKey(id),
      UpdateExpression: `SET ${paths.map((path, i) => `${path.map(ref).join('.')} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(parts.map((part) => [ref(part), part])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(fields).map((value, i) => [`:v${i}`, value])),
    }),
  );
}

/** The settings items of the channel (its handle, app password and server). */
const settingItems = async () =>
  (await app.items()).filter((item) => String(item.SK).toLowerCase().startsWith('setting#bluesky'));

beforeAll(async () => {
  [pds, app] = await Promise.all([atprotoPdsOrSkip(), startTestApp()]);
  user = new Client(app.url);
  await user.call('/api/auth/register', { body: registration() });
  stranger = new Client(app.url);
  const body = registration();
  await stranger.call('/api/auth/register', { body });
  const sid = (await user.call('/api/admin/users')).json.users.find(
    (u: { email: string }) => u.email === body.email,
  )._id;
  await user.call(`/api/admin/users/${sid}/status`, { method: 'PATCH', body: { isActive: true } });
  await stranger.call('/api/auth/login', { body: { email: body.email, password: body.password } });
}, 30 * 60_000);

afterAll(async () => {
  await app?.stop();
  await pds?.stop();
  db.destroy();
});

/** This file's PDS, or the test skips (atprotoPdsOrSkip said why). */
const server = (ctx: TestContext): ChannelServer => {
  if (!pds) ctx.skip();
  return pds!;
};

describe('Bluesky through the generic channel routes', () => {
  it('refuses credentials of the wrong shape with what to enter (400), saving nothing', async () => {
    const res = await user.call('/api/channels/bluesky/connection', {
      method: 'PUT',
      body: { handle: 'writer.test', appPassword: 'my account password' },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(CredentialMessages.appPasswordInvalid);
    const status = await user.call('/api/channels/bluesky/connection');
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ success: true, channel: 'bluesky', connected: false });
    expect(await settingItems()).toEqual([]);
  });

  it('refuses to publish before Bluesky is connected (400); another workspace’s article is not found (404)', async () => {
    const id = await newArticle('Not yet on Bluesky', false);
    await setArticle(id, { versions: { bluesky: { content: 'A short post' } } });
    const res = await user.call(`/api/channels/bluesky/publish/${id}`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('bluesky_not_connected');
    const other = await stranger.call(`/api/channels/bluesky/publish/${id}`, { method: 'POST' });
    expect(other.status).toBe(404);
  });

  it('refuses a wrong app password with what to do (400), saving nothing', async (ctx) => {
    const { url } = server(ctx);
    const writer = await account('wrongpass');
    const res = await user.call('/api/channels/bluesky/connection', {
      method: 'PUT',
      body: { handle: writer.handle, appPassword: 'wxyz-2345-wxyz-2345', serviceUrl: url },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('bluesky_auth_failed');
    expect(res.json.message).toContain(`did not accept the app password for ${writer.handle}`);
    expect((await user.call('/api/channels/bluesky/connection')).json.connected).toBe(false);
    expect(await settingItems()).toEqual([]);
  });

  it('connects, publishes the Bluesky version with its image, alt text and facets, and a retry posts nothing twice', async (ctx) => {
    const { url } = server(ctx);
    const writer = await account('publisher');
    const connected = await user.call('/api/channels/bluesky/connection', {
      method: 'PUT',
      body: { handle: `@${writer.handle}`, appPassword: writer.appPassword, serviceUrl: url },
    });
    expect(connected.status).toBe(200);
    expect(connected.json).toMatchObject({ success: true, channel: 'bluesky', connected: true });
    expect(connected.json.fields.handle).toBe(writer.handle);
    expect(connected.json.fields.serviceUrl).toBe(new URL(url).origin);
    expect(connected.json.fields.appPassword).toMatch(/•/);
    expect(JSON.stringify(connected.json)).not.toContain(writer.appPassword);
    const tested = await user.call('/api/channels/bluesky/test', { method: 'POST', body: {} });
    expect(tested.json).toMatchObject({ success: true, message: `Connected to Bluesky as @${writer.handle}` });

    // the text: a link and two hashtags after multi-byte characters, so bytes and characters differ
    const text = 'Café ☕ notes from the press: https://example.com/read-more #Publishing #café';
    const id = await newArticle('Printing presses on Bluesky');
    // over 300 graphemes (an emoji with a skin tone is one): refused with the rule, nothing posted
    await setArticle(id, { versions: { bluesky: { content: `${'👍🏽'.repeat(301)}` } } });
    const tooLong = await user.call(`/api/channels/bluesky/publish/${id}`, { method: 'POST' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.message).toBe('The Bluesky post is 301 characters long; Bluesky allows 300. Shorten it by 1.');
    expect(await postsOf(writer.did)).toEqual([]);
    await setArticle(id, { versions: { bluesky: { content: text } } });
    const published = await user.call(`/api/channels/bluesky/publish/${id}`, { method: 'POST' });
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    expect(published.json.message).toBe('Successfully published to Bluesky!');
    const postUrl: string = published.json.post.url;
    expect(postUrl).toMatch(new RegExp(`^https://bsky\\.app/profile/${writer.did}/post/[a-z2-7]{13}$`));
    expect(published.json.article.posts.bluesky).toMatchObject({ url: postUrl });
    expect(published.json.article.versions).toEqual({ bluesky: { content: text } });
    const rkey = postUrl.split('/').pop()!;

    const stored = await xrpc('com.atproto.repo.getRecord', {
      query: { repo: writer.did, collection: 'app.bsky.feed.post', rkey },
    });
    expect(stored.status).toBe(200);
    const record = stored.json.value;
    expect(record.text).toBe(text);
    const bytes = Buffer.from(text, 'utf8');
    const spans = record.facets.map((facet: any) => ({
      text: bytes.subarray(facet.index.byteStart, facet.index.byteEnd).toString('utf8'),
      feature: facet.features[0],
    }));
    expect(spans).toEqual([
      {
        text: 'https://example.com/read-more',
        feature: { $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/read-more' },
      },
      { text: '#Publishing', feature: { $type: 'app.bsky.richtext.facet#tag', tag: 'Publishing' } },
      { text: '#café', feature: { $type: 'app.bsky.richtext.facet#tag', tag: 'café' } },
    ]);
    expect(record.embed.$type).toBe('app.bsky.embed.images');
    expect(record.embed.images).toHaveLength(1);
    expect(record.embed.images[0].alt).toBe('a printing press');
    expect(record.embed.images[0].image).toMatchObject({ $type: 'blob', mimeType: expect.stringMatching(/^image\//) });
    expect(record.embed.images[0].image.size).toBeLessThanOrEqual(1_000_000);

    // published once: publishing again is refused, and the account still has one post
    const again = await user.call(`/api/channels/bluesky/publish/${id}`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('already_published');
    expect(await postsOf(writer.did)).toHaveLength(1);

    // An earlier attempt made its post but its answer was lost: the retry finds it under the noted key.
    const lost = await newArticle('A lost answer', false);
    const at = '2026-01-02T03:04:05.000Z';
    const lostKey = postRecordKey(lost, 'bluesky', at);
    await setArticle(lost, {
      versions: { bluesky: { content: 'Posted once #only' } },
      publishAttempts: { bluesky: { at, recordKey: lostKey } },
    });
    const made = await xrpc('com.atproto.repo.createRecord', {
      token: writer.accessJwt,
      body: {
        repo: writer.did,
        collection: 'app.bsky.feed.post',
        rkey: lostKey,
        record: { $type: 'app.bsky.feed.post', text: 'Posted once #only', createdAt: at },
      },
    });
    expect(made.status).toBe(200);
    const retried = await user.call(`/api/channels/bluesky/publish/${lost}`, { method: 'POST' });
    expect(retried.status, JSON.stringify(retried.json)).toBe(200);
    expect(retried.json.post.url).toBe(`https://bsky.app/profile/${writer.did}/post/${lostKey}`);
    expect(await postsOf(writer.did)).toHaveLength(2);

    // Once the blog post is live, the post links to it with a card, the image as the card's picture.
    const live = await newArticle('Live on the blog');
    await setArticle(live, {
      versions: { bluesky: { content: 'Read it on the blog #presses' } },
      'blog.wordpressPostUrl': 'https://blog.example.com/live-on-the-blog',
    });
    const carded = await user.call(`/api/channels/bluesky/publish/${live}`, { method: 'POST' });
    expect(carded.status, JSON.stringify(carded.json)).toBe(200);
    const card = await xrpc('com.atproto.repo.getRecord', {
      query: { repo: writer.did, collection: 'app.bsky.feed.post', rkey: carded.json.post.url.split('/').pop() },
    });
    expect(card.json.value.embed).toMatchObject({
      $type: 'app.bsky.embed.external',
      external: {
        uri: 'https://blog.example.com/live-on-the-blog',
        title: 'Live on the blog',
        thumb: { $type: 'blob', mimeType: expect.stringMatching(/^image\//) },
      },
    });

    // the PublishSucceeded event names the channel
    const succeeded = (await app.items()).filter(
      (item: any) => item.type === OUTBOX_ITEM_TYPE && item.name === 'PublishSucceeded' && item.detail.articleId === id,
    );
    expect(succeeded.map((item: any) => [item.detail.platform, item.detail.postUrl])).toEqual([['bluesky', postUrl]]);
  });

  it('answers 404 for an unknown channel', async () => {
    expect((await user.call('/api/channels/bluesky-clone/connection')).status).toBe(404);
    expect((await user.call('/api/channels/mastodon/publish/abc', { method: 'POST' })).status).toBe(404);
  });
});
