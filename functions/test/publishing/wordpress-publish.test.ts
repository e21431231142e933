import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpWordPressPublisher, safeUploadFilename } from '../../src/channels/wordpress/publish.js';
import { basicAuthHeader } from '../../src/channels/wordpress/client.js';
import { IntegrationError, type WordPressSite } from '../../src/domain/integrations.js';
import {
  FAKE_WP_CONTRIBUTOR,
  FAKE_WP_EDITOR,
  startFakeWordPress,
  type FakeWordPress,
  type FakeWpUser,
} from '../fakes/wordpress.js';
import { closedPort, expectNoSecrets, rejection } from '../integrations/helpers.js';
import { PNG, sendJson, serve } from './helpers.js';

let wp: FakeWordPress;
const publisher = new HttpWordPressPublisher({ allowPrivateUrls: true, timeoutMs: 5_000 });

beforeAll(async () => {
  wp = await startFakeWordPress();
});
afterAll(() => wp.stop());
beforeEach(() => wp.reset());

const site = (
  user: FakeWpUser = FAKE_WP_EDITOR,
  apiStyle: WordPressSite['apiStyle'] = 'pretty',
  url = wp.url,
): WordPressSite => ({
  siteUrl: url,
  username: user.username,
  appPassword: user.appPassword,
  apiStyle,
});
const image = (filename = 'Café Über.png') => ({ bytes: PNG, contentType: 'image/png', filename });
const secretsOf = (user: FakeWpUser) => [
  user.appPassword,
  user.appPassword.replace(/\s/g, ''),
  basicAuthHeader(user.username, user.appPassword).slice(6),
];

describe('HttpWordPressPublisher.publish against the fake WordPress', () => {
  it('uploads the featured image, then creates one published post that uses it', async () => {
    const result = await publisher.publish(site(), {
      title: 'Hello World',
      html: '<p>Body</p>',
      featuredImage: image(),
    });

    expect(wp.media).toHaveLength(1);
    const media = wp.media[0]!;
    expect(media).toMatchObject({
      filename: 'Cafe-Uber.png',
      mimeType: 'image/png',
      width: 2,
      height: 3,
      author: FAKE_WP_EDITOR.id,
    });
    expect(media.bytes.equals(PNG)).toBe(true);

    expect(wp.posts).toHaveLength(1);
    const post = wp.posts[0]!;
    expect(post).toMatchObject({
      title: 'Hello World',
      content: '<p>Body</p>',
      status: 'publish',
      featuredMedia: media.id,
      author: FAKE_WP_EDITOR.id,
    });
    expect(result).toEqual({
      postId: post.id,
      link: expect.stringMatching(new RegExp(`^${wp.url}/\\d{4}/\\d{2}/\\d{2}/hello-world/$`)),
      mediaId: media.id,
    });

    const [upload, create] = wp.requests;
    expect(wp.requests).toHaveLength(2);
    expect(upload).toMatchObject({
      method: 'POST',
      route: '/wp/v2/media',
      style: 'pretty',
      user: 'editor',
      body: { bytes: PNG.length },
    });
    expect(upload!.headers['content-type']).toBe('image/png');
    expect(upload!.headers['content-disposition']).toBe('attachment; filename="Cafe-Uber.png"');
    expect(create).toMatchObject({
      method: 'POST',
      route: '/wp/v2/posts',
      user: 'editor',
      body: { title: 'Hello World', content: '<p>Body</p>', status: 'publish', featured_media: media.id },
    });
  });

  it('without an image it posts no media and sends no featured_media', async () => {
    const result = await publisher.publish(site(), { title: 'Plain', html: '<p>x</p>' });
    expect(result).toEqual({ postId: wp.posts[0]!.id, link: expect.any(String) });
    expect(wp.media).toHaveLength(0);
    expect(wp.requests.map((r) => r.route)).toEqual(['/wp/v2/posts']);
    expect(wp.requests[0]!.body).toEqual({ title: 'Plain', content: '<p>x</p>', status: 'publish' });
  });

  it('republishing with existingPostId updates the same post instead of creating a second one', async () => {
    const first = await publisher.publish(site(), { title: 'First', html: '<p>1</p>', featuredImage: image('a.png') });
    const second = await publisher.publish(site(), {
      title: 'Second',
      html: '<p>2</p>',
      featuredImage: image('b.png'),
      existingPostId: first.postId,
    });
    expect(second.postId).toBe(first.postId);
    expect(wp.posts).toHaveLength(1);
    expect(wp.posts[0]).toMatchObject({
      id: first.postId,
      title: 'Second',
      content: '<p>2</p>',
      status: 'publish',
      featuredMedia: second.mediaId,
    });
    expect(second.mediaId).not.toBe(first.mediaId);
    expect(wp.requests.at(-1)).toMatchObject({ method: 'POST', route: `/wp/v2/posts/${first.postId}` });
  });

  it('a post link that is not http(s) counts as none: the ?p= address is answered instead', async () => {
    for (const odd of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example/x',
    ]) {
      wp.postLink = odd;
      const result = await publisher.publish(site(), { title: 'Odd', html: '<p>x</p>' });
      expect(result.link).toBe(`${wp.url}/?p=${result.postId}`);
    }
  });

  it('a post deleted in WordPress since the last publish is created anew', async () => {
    const first = await publisher.publish(site(), { title: 'Gone soon', html: '<p>1</p>' });
    wp.posts.length = 0; // deleted permanently in the WordPress admin
    const again = await publisher.publish(site(), { title: 'Back', html: '<p>2</p>', existingPostId: first.postId });
    expect(again.postId).not.toBe(first.postId);
    expect(wp.posts).toHaveLength(1);
    expect(wp.posts[0]).toMatchObject({ id: again.postId, title: 'Back', status: 'publish' });
    expect(wp.requests.slice(-2).map((r) => r.route)).toEqual([`/wp/v2/posts/${first.postId}`, '/wp/v2/posts']);
  });

  it('notices when WordPress silently drops the featured image (core ignores a bad featured_media)', async () => {
    // a plugin removes the attachment between the upload and the post: core saves the post without it
    wp.onRest = (request) => {
      if (request.route === '/wp/v2/posts') wp.media.length = 0;
    };
    const error = await rejection(
      publisher.publish(site(), { title: 'No image kept', html: '<p>x</p>', featuredImage: image() }),
    );
    expect(error).toBeInstanceOf(IntegrationError);
    expect(error.code).toBe('wordpress_featured_media');
    expect(error.message).toMatch(/did not keep the featured image/);
    expect(wp.posts[0]).toMatchObject({ featuredMedia: 0 });
  });

  it('on an update a dropped featured image (previous one kept) is noticed too', async () => {
    const first = await publisher.publish(site(), { title: 'One', html: '<p>1</p>', featuredImage: image('one.png') });
    wp.onRest = (request) => {
      if (request.route === `/wp/v2/posts/${first.postId}`) wp.media.splice(1);
    };
    const error = await rejection(
      publisher.publish(site(), {
        title: 'Two',
        html: '<p>2</p>',
        featuredImage: image('two.png'),
        existingPostId: first.postId,
      }),
    );
    expect(error.code).toBe('wordpress_featured_media');
    expect(wp.posts[0]!.featuredMedia).toBe(first.mediaId);
  });

  it('a site that rejects the id (rest_invalid_featured_media) gives the same code', async () => {
    const strict = await startFakeWordPress({ invalidFeaturedMedia: 'error' });
    try {
      strict.onRest = (request) => {
        if (request.route === '/wp/v2/posts') strict.media.length = 0;
      };
      const error = await rejection(
        publisher.publish(site(FAKE_WP_EDITOR, 'pretty', strict.url), {
          title: 'x',
          html: 'x',
          featuredImage: image(),
        }),
      );
      expect(error).toMatchObject({ code: 'wordpress_featured_media', status: 400 });
      expect(strict.posts).toHaveLength(0);
    } finally {
      await strict.stop();
    }
  });

  it('works on a site without pretty permalinks through ?rest_route=', async () => {
    wp.setMode('query-only');
    const result = await publisher.publish(site(FAKE_WP_EDITOR, 'query'), {
      title: 'Query style',
      html: '<p>q</p>',
      featuredImage: image('q.png'),
    });
    expect(wp.posts).toHaveLength(1);
    expect(wp.posts[0]).toMatchObject({ featuredMedia: result.mediaId, status: 'publish' });
    expect(result.link).toBe(`${wp.url}/?p=${result.postId}`);
    expect(wp.requests.map((r) => [r.style, r.path])).toEqual([
      ['query', '/?rest_route=/wp/v2/media'],
      ['query', '/?rest_route=/wp/v2/posts'],
    ]);
    const update = await publisher.publish(site(FAKE_WP_EDITOR, 'query'), {
      title: 'Again',
      html: '<p>q</p>',
      existingPostId: result.postId,
    });
    expect(update.postId).toBe(result.postId);
    expect(wp.requests.at(-1)!.path).toBe(`/?rest_route=/wp/v2/posts/${result.postId}`);
  });

  it('a contributor gets an actionable permission error (cannot upload media, cannot publish)', async () => {
    const withImage = await rejection(
      publisher.publish(site(FAKE_WP_CONTRIBUTOR), { title: 'x', html: 'x', featuredImage: image() }),
    );
    expect(withImage).toMatchObject({ code: 'wordpress_permission', status: 403 });
    expect(withImage.message).toMatch(/Contributors/);
    expect(withImage.message).toMatch(/Author, Editor or Administrator/);

    const withoutImage = await rejection(publisher.publish(site(FAKE_WP_CONTRIBUTOR), { title: 'x', html: 'x' }));
    expect(withoutImage).toMatchObject({ code: 'wordpress_permission', status: 403 });
    expect(withoutImage.message).toMatch(/not allowed to publish posts/);
    expect(wp.posts).toHaveLength(0);
    for (const error of [withImage, withoutImage]) expectNoSecrets(error.message, secretsOf(FAKE_WP_CONTRIBUTOR));
  });

  it('wrong credentials: "WordPress refused the credentials … Settings", never the password', async () => {
    const wrong = { ...FAKE_WP_EDITOR, appPassword: 'zzzz zzzz zzzz zzzz zzzz zzzz' };
    const error = await rejection(publisher.publish(site(wrong), { title: 'x', html: 'x', featuredImage: image() }));
    expect(error).toMatchObject({ code: 'wordpress_credentials', status: 401 });
    expect(error.message).toMatch(/^WordPress refused the credentials/);
    expect(error.message).toMatch(/Settings/);
    expectNoSecrets(error.message, secretsOf(wrong));
    expect(wp.media).toHaveLength(0);
  });

  it('an anonymous 401 (WordPress 6.x: a mistyped password, an unknown user or a stripped header alike) leads with the username and password, the header only as the remaining cause', async () => {
    wp.setMode('strip-auth');
    const error = await rejection(publisher.publish(site(), { title: 'x', html: 'x' }));
    expect(error).toMatchObject({ code: 'wordpress_credentials', status: 401 });
    const { message } = error;
    expect(message).toMatch(
      // An anonymous create answers 401 rest_cannot_create.
      /^WordPress refused the credentials \(HTTP 401 rest_\w+\)\. Check the username and the application password in Settings/,
    );
    expect(message).toContain('Users → Profile → Application Passwords');
    expect(message).toMatch(/If both are right, the web server may be dropping the Authorization header/);
    expect(message.indexOf('Authorization header')).toBeGreaterThan(message.indexOf('application password'));
    expect(message).not.toMatch(/without credentials|dropped the Authorization/);
    expect(message).toMatch(/The article is kept; try again\.$/);
  });

  it('a site that is down: "WordPress is not reachable … the article is kept; try again"', async () => {
    wp.setMode('down');
    const error = await rejection(publisher.publish(site(), { title: 'x', html: 'x', featuredImage: image() }));
    expect(error).toMatchObject({ code: 'wordpress_unreachable', status: 500 });
    expect(error.message).toMatch(/^WordPress is not reachable/);
    expect(error.message).toMatch(/article is kept; try again/);

    wp.setMode('down', { close: true });
    const closed = await rejection(publisher.publish(site(), { title: 'x', html: 'x' }));
    expect(closed.code).toBe('wordpress_unreachable');
    expect(closed.message).toMatch(/article is kept; try again/);

    const nobody = await rejection(
      publisher.publish(site(FAKE_WP_EDITOR, 'pretty', `http://127.0.0.1:${await closedPort()}`), {
        title: 'x',
        html: 'x',
      }),
    );
    expect(nobody.code).toBe('wordpress_unreachable');
    expect(nobody.message).toMatch(/refused the connection/);
  });

  it('a new post gets the article’s slug, announced before the post request; a created post that got a server error may exist (outcome unknown)', async () => {
    const seen: string[] = [];
    const result = await publisher.publish(
      site(),
      { title: 'Slugged', html: '<p>x</p>', slug: 'slugged-0a1b2c3d4e' },
      { beforeCreate: async ({ slug }) => void seen.push(`${slug} after ${wp.requests.length} requests`) },
    );
    expect(seen).toEqual(['slugged-0a1b2c3d4e after 0 requests']);
    expect(wp.posts[0]).toMatchObject({ id: result.postId, slug: 'slugged-0a1b2c3d4e' });
    expect(wp.requests[0]!.body).toMatchObject({ slug: 'slugged-0a1b2c3d4e' });

    // An update announces nothing (it cannot make a second post).
    await publisher.publish(
      site(),
      { title: 'Slugged', html: '<p>y</p>', slug: 'slugged-0a1b2c3d4e', existingPostId: result.postId },
      { beforeCreate: async () => void seen.push('update') },
    );
    expect(seen).toHaveLength(1);

    wp.setMode('down');
    const error = await rejection(publisher.publish(site(), { title: 'Down', html: 'x', slug: 'down-1' }));
    expect(error).toMatchObject({ code: 'wordpress_unreachable', outcome: 'unknown' });
    expect(error.message).toMatch(
      /Publishing again looks for this post on WordPress first, so it is never published twice\.$/,
    );
  });

  it('findBySlug: a post an earlier attempt created is found (any status, pretty or query API) and updated, not created again', async () => {
    for (const apiStyle of ['pretty', 'query'] as const) {
      wp.reset();
      if (apiStyle === 'query') wp.setMode('query-only');
      const first = await publisher.publish(site(FAKE_WP_EDITOR, apiStyle), {
        title: 'Once',
        html: '<p>1</p>',
        slug: 'once-0a1b2c3d4e',
      });
      wp.posts[0]!.status = 'pending'; // e.g. a plugin held it for review
      const again = await publisher.publish(
        site(FAKE_WP_EDITOR, apiStyle),
        { title: 'Once', html: '<p>2</p>', slug: 'once-0a1b2c3d4e', findBySlug: true },
        { beforeCreate: async () => expect.unreachable('no second post') },
      );
      expect(again.postId).toBe(first.postId);
      expect(wp.posts).toHaveLength(1);
      expect(wp.posts[0]).toMatchObject({ content: '<p>2</p>', status: 'publish' });
      const lookup = wp.requests.find((r) => r.method === 'GET' && r.route === '/wp/v2/posts')!;
      expect(lookup).toMatchObject({ style: apiStyle, user: 'editor' });
      expect(lookup.path).toMatch(/slug=once-0a1b2c3d4e&status=any&context=edit/);
    }
    // Nothing there: the post is created.
    wp.reset();
    await publisher.publish(site(), { title: 'New', html: 'x', slug: 'new-0a1b2c3d4e', findBySlug: true });
    expect(wp.posts.map((p) => p.slug)).toEqual(['new-0a1b2c3d4e']);
  });

  it('shares one deadline: a request that cannot finish in time is not started, one cut off is a publish_timeout', async () => {
    const late = await rejection(
      publisher.publish(site(), { title: 'x', html: 'x', featuredImage: image() }, { deadline: Date.now() + 500 }),
    );
    expect(late).toMatchObject({ code: 'publish_timeout', outcome: undefined });
    expect(wp.requests).toHaveLength(0);

    wp.holdAnswer = (r) => (r.route === '/wp/v2/posts' ? 'never' : undefined);
    const started = Date.now();
    const cut = await rejection(
      publisher.publish(
        site(),
        { title: 'x', html: 'x', featuredImage: image(), slug: 'x-1' },
        { deadline: Date.now() + 1500 },
      ),
    );
    expect(Date.now() - started).toBeLessThan(2500);
    expect(cut).toMatchObject({ code: 'publish_timeout', outcome: 'unknown' });
    expect(wp.media).toHaveLength(1);
    expect(wp.posts).toHaveLength(1);
  });

  it('in AWS mode a private address is refused before any request', async () => {
    const strict = new HttpWordPressPublisher({ allowPrivateUrls: false });
    const error = await rejection(strict.publish(site(), { title: 'x', html: 'x', featuredImage: image() }));
    expect(error.code).toBe('wordpress_forbidden_url');
    expect(error.message).toMatch(/private or local network address/);
    expect(wp.requests).toHaveLength(0);
  });

  it('maps upload, server and redirect answers to actionable errors', async () => {
    const server = await serve((req, res) => {
      if (req.url!.includes('/wp/v2/media')) {
        return sendJson(res, 400, {
          code: 'rest_upload_file_too_big',
          message: 'The file is too large.',
          data: { status: 400 },
        });
      }
      if (req.url!.includes('/wp/v2/posts/7')) {
        res.writeHead(301, { Location: 'https://www.example.org/wp-json/wp/v2/posts/7' });
        return res.end();
      }
      return sendJson(res, 500, {
        code: 'db_insert_error',
        message: 'Could not insert post into the database.',
        data: { status: 500 },
      });
    });
    try {
      const own = site(FAKE_WP_EDITOR, 'pretty', server.url);
      const upload = await rejection(publisher.publish(own, { title: 'x', html: 'x', featuredImage: image() }));
      expect(upload).toMatchObject({ code: 'wordpress_upload', status: 400 });
      expect(upload.message).toMatch(/larger than the site allows/);

      const down = await rejection(publisher.publish(own, { title: 'x', html: 'x' }));
      expect(down).toMatchObject({ code: 'wordpress_unreachable', status: 500 });
      expect(down.message).toMatch(/Could not insert post into the database/);

      const moved = await rejection(publisher.publish(own, { title: 'x', html: 'x', existingPostId: 7 }));
      expect(moved).toMatchObject({ code: 'wordpress_redirect', status: 301 });
      expect(moved.message).toContain('https://www.example.org');
      expect(server.received.at(-1)!.headers['content-type']).toBe('application/json');
    } finally {
      await server.close();
    }
  });
});

describe('safeUploadFilename', () => {
  it.each([
    ['hero.png', 'image/png', 'hero.png'],
    ['Café Über.PNG', 'image/png', 'Cafe-Uber.png'],
    ['photo.jpeg', 'image/jpeg', 'photo.jpeg'],
    ['photo.png', 'image/jpeg', 'photo.jpg'],
    ['no extension', 'image/webp', 'no-extension.webp'],
    ['../../etc/passwd', 'image/png', 'passwd.png'],
    ['"quoted"; name=evil.png', 'image/png', 'quoted-name-evil.png'],
    ['日本語.png', 'image/png', 'featured-image.png'],
    [`${'x'.repeat(200)}.gif`, 'image/gif', `${'x'.repeat(76)}.gif`],
  ])('%s (%s) → %s', (input, type, expected) => {
    expect(safeUploadFilename(input, type)).toBe(expected);
  });
});
