import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LINKEDIN_TOKEN_INVALID_MESSAGE } from '../../src/channels/linkedin/client.js';
import { HttpLinkedInPublisher } from '../../src/channels/linkedin/publish.js';
import { IntegrationError } from '../../src/domain/integrations.js';
import { startFakeLinkedIn, type FakeLinkedIn } from '../fakes/linkedin.js';
import { closedPort, expectNoSecrets, rejection } from '../integrations/helpers.js';
import { PNG, sendJson, serve } from './helpers.js';

let li: FakeLinkedIn;
let publisher: HttpLinkedInPublisher;

beforeAll(async () => {
  li = await startFakeLinkedIn();
  publisher = new HttpLinkedInPublisher({ apiUrl: li.apiUrl });
});
afterAll(() => li.stop());
beforeEach(() => li.reset());

const person = () => `urn:li:person:${li.member.sub}`;
const ORG = 'urn:li:organization:2414183';
const png = { bytes: PNG, contentType: 'image/png' };
const restRequests = () => li.requests.filter((r) => r.path.startsWith('/rest/'));

describe('HttpLinkedInPublisher.publish against the fake LinkedIn', () => {
  it('personal profile: uploads the image owned by the member, posts the exact body, returns URN and URL', async () => {
    const token = li.issueToken();
    const result = await publisher.publish({
      accessToken: token,
      author: person(),
      commentary: 'New article (part 1) is out! #launch\nThanks @everyone',
      image: png,
    });

    expect(li.images).toHaveLength(1);
    const image = li.images[0]!;
    expect(image).toMatchObject({ owner: person(), contentType: 'image/png' });
    expect(image.bytes!.equals(PNG)).toBe(true);

    expect(li.posts).toHaveLength(1);
    const post = li.posts[0]!;
    expect(post.linkedInVersion).toBe('202601');
    expect(post.body).toEqual({
      author: person(),
      commentary: 'New article \\(part 1\\) is out! #launch\nThanks \\@everyone',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      content: { media: { id: image.urn } },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    });
    expect(result).toEqual({ urn: post.urn, url: `https://www.linkedin.com/feed/update/${post.urn}` });
    expect(result.urn).toMatch(/^urn:li:share:\d+$/);

    const paths = li.requests.map((r) => `${r.method} ${r.path.replace(/\?.*$/, '')}`);
    expect(paths).toEqual([
      'POST /rest/images',
      `PUT /upload/images/${image.urn.slice('urn:li:image:'.length)}`,
      `GET /rest/images/${encodeURIComponent(image.urn)}`,
      'POST /rest/posts',
    ]);
    const [init, , , create] = li.requests;
    expect(init!.path).toBe('/rest/images?action=initializeUpload');
    expect(init!.body).toEqual({ initializeUploadRequest: { owner: person() } });
    for (const request of restRequests()) {
      expect(request.headers['linkedin-version']).toBe('202601');
      expect(request.headers['x-restli-protocol-version']).toBe('2.0.0');
    }
    expect(create!.headers['content-type']).toBe('application/json');
  });

  it('without an image it posts no content field', async () => {
    const result = await publisher.publish({ accessToken: li.issueToken(), author: person(), commentary: 'Just text' });
    expect(li.images).toHaveLength(0);
    expect(li.posts[0]!.body).not.toHaveProperty('content');
    expect(li.posts[0]!.body.commentary).toBe('Just text');
    expect(result.urn).toBe(li.posts[0]!.urn);
  });

  it('an article share: content.article with the page, its title and summary, the image as its thumbnail (no media)', async () => {
    const article = {
      source: 'https://blog.example.com/2026/blog-first',
      title: 'Blog first',
      description: 'Why the blog post goes first',
    };
    const result = await publisher.publish({
      accessToken: li.issueToken(),
      author: person(),
      commentary: 'Read the whole story',
      image: png,
      article,
    });
    const image = li.images[0]!;
    expect(li.posts).toHaveLength(1);
    expect(li.posts[0]!.body.content).toEqual({ article: { ...article, thumbnail: image.urn } });
    expect(li.posts[0]!.body.commentary).toBe('Read the whole story');
    expect(result.urn).toBe(li.posts[0]!.urn);

    // Without an image or a summary: the share alone.
    await publisher.publish({
      accessToken: li.issueToken(),
      author: person(),
      commentary: 'Another story',
      article: { source: article.source, title: 'Another' },
    });
    expect(li.posts[1]!.body.content).toEqual({ article: { source: article.source, title: 'Another' } });
  });

  it('the fake refuses an article share as LinkedIn does: no title, no URL, two kinds of content, a foreign thumbnail', async () => {
    const token = li.issueToken();
    const post = (content: unknown) =>
      fetch(`${li.apiUrl}/rest/posts`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'linkedin-version': '202601',
          'x-restli-protocol-version': '2.0.0',
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          author: person(),
          commentary: `c${Math.random()}`,
          visibility: 'PUBLIC',
          distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
          lifecycleState: 'PUBLISHED',
          content,
        }),
      });
    const source = 'https://blog.example.com/p';
    for (const [content, status, message] of [
      [{ article: { source } }, 422, /\/content\/article\/title :: field is required/],
      [{ article: { source: 'not a url', title: 'T' } }, 422, /\/content\/article\/source :: /],
      [{ article: { source, title: 'T' }, media: { id: 'urn:li:image:x' } }, 422, /exactly one content type/],
      [{ article: { source, title: 'T', thumbnail: 'urn:li:image:nope' } }, 400, /is not an uploaded image/],
    ] as const) {
      const answer = await post(content);
      expect(answer.status, JSON.stringify(content)).toBe(status);
      expect(((await answer.json()) as { message: string }).message).toMatch(message);
    }
    expect(li.posts).toHaveLength(0);
  });

  it('the LinkedIn-Version is configurable', async () => {
    const pinned = new HttpLinkedInPublisher({ apiUrl: `${li.apiUrl}/`, version: '202603' });
    await pinned.publish({ accessToken: li.issueToken(), author: person(), commentary: 'v' });
    expect(li.posts[0]!.linkedInVersion).toBe('202603');
  });

  it('company page: the organization URN is both image owner and author', async () => {
    await publisher.publish({ accessToken: li.issueToken(), author: ORG, commentary: 'From the page', image: png });
    expect(li.images[0]!.owner).toBe(ORG);
    expect(li.posts[0]!.body).toMatchObject({ author: ORG, content: { media: { id: li.images[0]!.urn } } });
  });

  it('a page the member only analyses: 403 → not an admin of the page', async () => {
    const error = await rejection(
      publisher.publish({
        accessToken: li.issueToken(),
        author: 'urn:li:organization:5550001',
        commentary: 'x',
        image: png,
      }),
    );
    expect(error).toBeInstanceOf(IntegrationError);
    expect(error).toMatchObject({ code: 'linkedin_forbidden', status: 403 });
    expect(error.message).toMatch(/administrator/);
    expect(error.message).toMatch(/w_organization_social/);
    expect(li.posts).toHaveLength(0);
  });

  it('a token without w_member_social: 403 → the missing permission, reconnect', async () => {
    const token = li.issueToken(['openid', 'profile', 'email']);
    const error = await rejection(publisher.publish({ accessToken: token, author: person(), commentary: 'x' }));
    expect(error).toMatchObject({ code: 'linkedin_forbidden', status: 403 });
    expect(error.message).toMatch(/w_member_social/);
    expect(error.message).toMatch(/reconnect LinkedIn in Settings/);
    expectNoSecrets(error.message, [token]);
  });

  it('expired or revoked tokens anywhere → linkedin_token_invalid', async () => {
    const token = li.issueToken();
    li.setMode('expire-tokens');
    for (const attempt of [
      () => publisher.publish({ accessToken: token, author: person(), commentary: 'x', image: png }),
      () => publisher.publish({ accessToken: token, author: person(), commentary: 'x' }),
      () => publisher.administeredOrganizations(token),
    ]) {
      const error = await rejection(attempt());
      expect(error).toMatchObject({
        code: 'linkedin_token_invalid',
        status: 401,
        message: LINKEDIN_TOKEN_INVALID_MESSAGE,
      });
      expectNoSecrets(error.message, [token]);
    }
    li.setMode('ok');
    const revoked = li.issueToken();
    li.revokeToken(revoked);
    expect((await rejection(publisher.publish({ accessToken: revoked, author: person(), commentary: 'x' }))).code).toBe(
      'linkedin_token_invalid',
    );
    expect(li.posts).toHaveLength(0);
  });

  it('escapes the commentary and keeps it within 3000 characters after escaping', async () => {
    const long = `${'(a) '.repeat(1000)} #end`; // 4005 characters, 6000+ once escaped
    await publisher.publish({ accessToken: li.issueToken(), author: person(), commentary: long });
    const commentary: string = li.posts[0]!.body.commentary;
    expect(commentary.length).toBeLessThanOrEqual(3000);
    expect(commentary.length).toBeGreaterThan(2900);
    expect(commentary.startsWith('\\(a\\) \\(a\\) ')).toBe(true);
    expect(commentary.endsWith('…')).toBe(true);
  });

  it('announces the post exactly as sent before sending it; resend sends it unchanged and a duplicate answers the post LinkedIn has', async () => {
    const token = li.issueToken();
    const sent: unknown[] = [];
    const first = await publisher.publish(
      { accessToken: token, author: person(), commentary: 'Once (only)', image: png },
      { beforeCreate: async (post) => void sent.push(post) },
    );
    expect(sent).toEqual([{ author: person(), commentary: 'Once \\(only\\)', imageUrn: li.images[0]!.urn }]);
    expect(li.posts).toHaveLength(1);

    const again = await publisher.resend(token, sent[0] as never);
    expect(again).toEqual(first);
    expect(li.posts).toHaveLength(1);
    expect(li.images).toHaveLength(1);
    const refused = li.requests.filter((r) => r.method === 'POST' && r.path === '/rest/posts').at(-1)!;
    expect(refused.body).toEqual(li.posts[0]!.body); // the very same body

    // A first post whose text the author posted before answers that post too.
    expect(await publisher.publish({ accessToken: token, author: person(), commentary: 'Once (only)' })).toEqual(first);
    // Another author may post the same text.
    await publisher.publish({ accessToken: token, author: ORG, commentary: 'Once (only)' });
    expect(li.posts).toHaveLength(2);
  });

  it('shares one deadline: the image polls stop in time to post; a post cut off by it may exist (outcome unknown)', async () => {
    const token = li.issueToken();
    // LinkedIn never tells the image status: the polls end POST_RESERVE_MS (5 s) before the deadline, the post goes out.
    li.holdAnswer = (r) => (r.method === 'GET' && r.path.startsWith('/rest/images/') ? 'never' : undefined);
    const patient = new HttpLinkedInPublisher({ apiUrl: li.apiUrl, imageReadyTimeoutMs: 60_000, imagePollMs: 10 });
    const started = Date.now();
    await patient.publish(
      { accessToken: token, author: person(), commentary: 'In time', image: png },
      { deadline: Date.now() + 7000 },
    );
    expect(Date.now() - started).toBeLessThan(3500);
    expect(li.posts).toHaveLength(1);

    li.holdAnswer = (r) => (r.method === 'POST' && r.path === '/rest/posts' ? 'never' : undefined);
    const cut = await rejection(
      publisher.publish(
        { accessToken: token, author: person(), commentary: 'Cut off' },
        { deadline: Date.now() + 1500 },
      ),
    );
    expect(cut).toMatchObject({ code: 'publish_timeout', outcome: 'unknown' });
    expect(li.posts).toHaveLength(2);
    const early = await rejection(
      publisher.publish(
        { accessToken: token, author: person(), commentary: 'Too late' },
        { deadline: Date.now() + 200 },
      ),
    );
    expect(early).toMatchObject({ code: 'publish_timeout', outcome: undefined });
  });

  it('LinkedIn down or unreachable → linkedin_unreachable', async () => {
    li.setMode('down');
    const error = await rejection(
      publisher.publish({ accessToken: li.issueToken(), author: person(), commentary: 'x' }),
    );
    expect(error).toMatchObject({ code: 'linkedin_unreachable', status: 503 });
    expect(error.message).toMatch(/try again later/);

    const nowhere = new HttpLinkedInPublisher({ apiUrl: `http://127.0.0.1:${await closedPort()}` });
    expect((await rejection(nowhere.publish({ accessToken: 't', author: person(), commentary: 'x' }))).code).toBe(
      'linkedin_unreachable',
    );
  });
});

describe('HttpLinkedInPublisher against a scripted LinkedIn', () => {
  it('429 → rate limit message; a missing x-restli-id → error; PROCESSING_FAILED → image error', async () => {
    let postStatus = 429;
    const server = await serve((req, res) => {
      const url = req.url!;
      if (url.startsWith('/rest/images?action=initializeUpload')) {
        return sendJson(res, 200, {
          value: {
            uploadUrl: `http://127.0.0.1:${(req.socket.localPort ?? 0).toString()}/upload/1`,
            image: 'urn:li:image:1',
          },
        });
      }
      if (url.startsWith('/upload/')) {
        res.writeHead(201, { 'Content-Length': 0 });
        return res.end();
      }
      if (url.startsWith('/rest/images/'))
        return sendJson(res, 200, { id: 'urn:li:image:1', status: 'PROCESSING_FAILED' });
      if (postStatus === 429)
        return sendJson(res, 429, { status: 429, message: 'Resource level throttle limit reached' });
      res.writeHead(201, { 'Content-Length': 0 });
      return res.end();
    });
    try {
      const scripted = new HttpLinkedInPublisher({ apiUrl: server.url, imagePollMs: 10 });
      const limited = await rejection(
        scripted.publish({ accessToken: 't', author: 'urn:li:person:x', commentary: 'x' }),
      );
      expect(limited).toMatchObject({ code: 'linkedin_rate_limited', status: 429 });
      expect(limited.message).toMatch(/limit/);
      expect(limited.message).toMatch(/midnight UTC/);

      postStatus = 201;
      const noId = await rejection(scripted.publish({ accessToken: 't', author: 'urn:li:person:x', commentary: 'x' }));
      expect(noId.code).toBe('linkedin_error');
      expect(noId.message).toMatch(/Check your LinkedIn feed/);

      const failed = await rejection(
        scripted.publish({ accessToken: 't', author: 'urn:li:person:x', commentary: 'x', image: png }),
      );
      expect(failed.code).toBe('linkedin_image_failed');
      const upload = server.received.find((r) => r.url.startsWith('/upload/'))!;
      expect(upload.method).toBe('PUT');
      expect(upload.headers.authorization).toBe('Bearer t');
    } finally {
      await server.close();
    }
  });

  it('refuses to send the token to a plain-http upload URL on another host', async () => {
    const server = await serve((req, res) =>
      sendJson(res, 200, { value: { uploadUrl: 'http://evil.example/upload', image: 'urn:li:image:2' } }),
    );
    try {
      const scripted = new HttpLinkedInPublisher({ apiUrl: server.url });
      const error = await rejection(
        scripted.publish({ accessToken: 't', author: 'urn:li:person:x', commentary: 'x', image: png }),
      );
      expect(error.code).toBe('linkedin_error');
      expect(server.received).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('HttpLinkedInPublisher with answers of unexpected shape (checked with zod)', () => {
  const publish = (apiUrl: string, image?: typeof png) =>
    new HttpLinkedInPublisher({ apiUrl, imagePollMs: 10, imageReadyTimeoutMs: 100 }).publish({
      accessToken: 't',
      author: 'urn:li:person:x',
      commentary: 'x',
      ...(image ? { image } : {}),
    });

  it('a created post: the id of the body when there is no x-restli-id header; an id of another type names no post', async () => {
    let id: unknown = 'urn:li:share:7';
    const server = await serve((_req, res) => sendJson(res, 201, { id }));
    try {
      expect(await publish(server.url)).toEqual({
        urn: 'urn:li:share:7',
        url: 'https://www.linkedin.com/feed/update/urn:li:share:7',
      });
      for (id of [7, { urn: 'urn:li:share:7' }, 'share:7']) {
        const error = await rejection(publish(server.url));
        expect(error, JSON.stringify(id)).toMatchObject({ code: 'linkedin_error', status: 201, outcome: 'unknown' });
        expect(error.message).toMatch(/did not say which post it created/);
      }
    } finally {
      await server.close();
    }
  });

  it('an image registration without a usable upload address or image URN sends nothing more', async () => {
    for (const value of [
      { uploadUrl: 42, image: 'urn:li:image:1' },
      { uploadUrl: 'https://upload.example/1', image: ['urn:li:image:1'] },
      'urn:li:image:1',
      null,
    ]) {
      const server = await serve((_req, res) => sendJson(res, 200, { value }));
      try {
        const error = await rejection(publish(server.url, png));
        expect(error, JSON.stringify(value)).toMatchObject({ code: 'linkedin_error', status: 200 });
        expect(error.message).toBe('LinkedIn did not return a usable image upload address. Try again later.');
        expect(server.received).toHaveLength(1);
      } finally {
        await server.close();
      }
    }
  });

  it('an image status of another type is no status: polled until the wait ends, then the post is sent', async () => {
    const server = await serve((req, res) => {
      const url = req.url!;
      if (url.startsWith('/rest/images?action=initializeUpload')) {
        return sendJson(res, 200, {
          value: {
            uploadUrl: `http://127.0.0.1:${(req.socket.localPort ?? 0).toString()}/upload/1`,
            image: 'urn:li:image:1',
          },
        });
      }
      if (url.startsWith('/upload/')) {
        res.writeHead(201, { 'Content-Length': 0 });
        return res.end();
      }
      if (url.startsWith('/rest/images/')) return sendJson(res, 200, { status: { value: 'PROCESSING_FAILED' } });
      return sendJson(res, 201, {}, { 'x-restli-id': 'urn:li:share:8' });
    });
    try {
      expect((await publish(server.url, png)).urn).toBe('urn:li:share:8');
      expect(server.received.filter((r) => r.url.startsWith('/rest/images/')).length).toBeGreaterThan(1);
      expect(server.received.at(-1)!.url).toBe('/rest/posts');
    } finally {
      await server.close();
    }
  });

  it('error bodies: a message of another type is no detail; input errors of another shape are skipped', async () => {
    let answer: { status: number; body: unknown } = {
      status: 422,
      body: { message: 42, errorDetails: { inputErrors: 'INVALID_VALUE' } },
    };
    const server = await serve((_req, res) => sendJson(res, answer.status, answer.body));
    try {
      const refused = await rejection(publish(server.url));
      expect(refused).toMatchObject({ code: 'linkedin_error', status: 422 });
      expect(refused.message).toBe(
        'LinkedIn refused the post (HTTP 422). The post is kept; try again, or edit it if the problem persists.',
      );

      // Input errors that are no list name no post; the details still say it is a duplicate.
      answer = {
        status: 422,
        body: {
          message: ['Content is a duplicate of urn:li:share:9'],
          errorDetails: { inputErrors: 'DUPLICATE_POST' },
        },
      };
      expect(await rejection(publish(server.url))).toMatchObject({ code: 'linkedin_duplicate', status: 422 });

      // The duplicate's code among input errors of other shapes still names the post LinkedIn has.
      answer = {
        status: 422,
        body: {
          message: 'Content is a duplicate of urn:li:share:9',
          errorDetails: { inputErrors: [null, 'x', { code: 5 }, { code: 'DUPLICATE_POST' }] },
        },
      };
      expect(await publish(server.url)).toEqual({
        urn: 'urn:li:share:9',
        url: 'https://www.linkedin.com/feed/update/urn:li:share:9',
      });

      answer = { status: 403, body: { message: { text: 'Not enough permissions' } } };
      const forbidden = await rejection(publish(server.url));
      expect(forbidden).toMatchObject({ code: 'linkedin_forbidden', status: 403 });
      expect(forbidden.message).toMatch(/^LinkedIn did not allow posting as you\. /);
    } finally {
      await server.close();
    }
  });

  it('page roles: elements of another shape are skipped, a paging total of another type ends the listing', async () => {
    let body: unknown = {
      elements: [
        { organization: 5, role: 'ADMINISTRATOR', state: 'APPROVED' },
        'urn:li:organization:1',
        null,
        { organization: 'urn:li:organization:2', role: ['ADMINISTRATOR'] },
        { organization: 'urn:li:organization:3', role: 'ADMINISTRATOR', state: 7 },
        { organization: 'urn:li:organization:4', role: 'CONTENT_ADMIN' },
      ],
      paging: { total: '100', start: 0, count: 100 },
    };
    const server = await serve((_req, res) => sendJson(res, 200, body));
    try {
      const publisher = new HttpLinkedInPublisher({ apiUrl: server.url });
      expect(await publisher.administeredOrganizations('t')).toEqual([
        { urn: 'urn:li:organization:4', role: 'CONTENT_ADMIN' },
      ]);
      expect(server.received).toHaveLength(1);

      body = { elements: { organization: 'urn:li:organization:4', role: 'ADMINISTRATOR' }, paging: 'none' };
      expect(await publisher.administeredOrganizations('t')).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('HttpLinkedInPublisher.administeredOrganizations', () => {
  it('lists the approved pages the member may post for, administrators first', async () => {
    const fake = await startFakeLinkedIn({
      organizations: [
        { id: '1', name: 'Analysed', vanityName: 'a', role: 'ANALYST', state: 'APPROVED' },
        { id: '2', name: 'Content', vanityName: 'c', role: 'CONTENT_ADMIN', state: 'APPROVED' },
        { id: '3', name: 'Admin', vanityName: 'ad', role: 'ADMINISTRATOR', state: 'APPROVED' },
        { id: '4', name: 'Pending', vanityName: 'p', role: 'ADMINISTRATOR', state: 'REQUESTED' },
        { id: '5', name: 'Sponsored', vanityName: 's', role: 'DIRECT_SPONSORED_CONTENT_POSTER', state: 'APPROVED' },
        { id: '6', name: 'Recruiting', vanityName: 'r', role: 'RECRUITING_POSTER', state: 'APPROVED' },
      ],
    });
    try {
      const pages = await new HttpLinkedInPublisher({ apiUrl: fake.apiUrl }).administeredOrganizations(
        fake.issueToken(),
      );
      expect(pages).toEqual([
        { urn: 'urn:li:organization:3', role: 'ADMINISTRATOR' },
        { urn: 'urn:li:organization:2', role: 'CONTENT_ADMIN' },
        { urn: 'urn:li:organization:5', role: 'DIRECT_SPONSORED_CONTENT_POSTER' },
      ]);
      const request = fake.requests.at(-1)!;
      const query = new URL(request.path, fake.url).searchParams;
      expect(query.get('q')).toBe('roleAssignee');
      expect(query.get('state')).toBe('APPROVED');
      expect(request.headers['linkedin-version']).toBe('202601');
      expect(request.headers['x-restli-protocol-version']).toBe('2.0.0');
    } finally {
      await fake.stop();
    }
  });

  it('names: each page with its localized name, from the decorated roles (one call, projection sent unencoded)', async () => {
    const requests = li.requests.length;
    expect(await publisher.administeredOrganizations(li.issueToken(), {}, { names: true })).toEqual([
      { urn: ORG, role: 'ADMINISTRATOR', name: 'Example GmbH' },
    ]);
    expect(li.requests.length).toBe(requests + 1);
    const path = li.requests.at(-1)!.path;
    expect(path).toContain('&projection=(elements*(organization,role,state,organization~(localizedName)),paging)');
    // Without names, no projection: publishing's lookup is the one it always was.
    await publisher.administeredOrganizations(li.issueToken());
    expect(li.requests.at(-1)!.path).not.toContain('projection');
  });

  it('names refused by LinkedIn → 403 like the roles themselves (the caller decides what to do without them)', async () => {
    li.denyOrganizationNames = true;
    const error = await rejection(publisher.administeredOrganizations(li.issueToken(), {}, { names: true }));
    expect(error).toMatchObject({ code: 'linkedin_forbidden', status: 403 });
    expect(await publisher.administeredOrganizations(li.issueToken())).toEqual([{ urn: ORG, role: 'ADMINISTRATOR' }]);
  });

  it('the default fake member administers Example GmbH only', async () => {
    expect(await publisher.administeredOrganizations(li.issueToken())).toEqual([{ urn: ORG, role: 'ADMINISTRATOR' }]);
  });

  it('a token that may not read pages → 403 with the missing permission', async () => {
    const error = await rejection(publisher.administeredOrganizations(li.issueToken(['openid', 'w_member_social'])));
    expect(error).toMatchObject({ code: 'linkedin_forbidden', status: 403 });
    expect(error.message).toMatch(/r_organization_admin/);
  });
});
