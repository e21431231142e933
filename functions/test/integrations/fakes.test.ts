/**
 * The fakes' publishing and import endpoints, driven with plain fetch: later publishing and
 * Sheets-import code relies on them behaving like the documented services.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { basicAuthHeader, wordpressApiUrl } from '../../src/channels/wordpress/client.js';
import { GOOGLE_SCOPE, SPREADSHEET_MIME, startFakeGoogle, type FakeGoogle } from '../fakes/google.js';
import { startFakeLinkedIn, type FakeLinkedIn } from '../fakes/linkedin.js';
import { FAKE_WP_CONTRIBUTOR, FAKE_WP_EDITOR, startFakeWordPress, type FakeWordPress } from '../fakes/wordpress.js';

// a 2×3 PNG (signature + IHDR is all the size check reads)
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  Buffer.from([0, 0, 0, 2, 0, 0, 0, 3, 8, 2, 0, 0, 0]),
  Buffer.alloc(16),
]);

describe('fake WordPress: media and posts', () => {
  let wp: FakeWordPress;
  beforeAll(async () => {
    wp = await startFakeWordPress();
  });
  afterAll(() => wp.stop());
  beforeEach(() => wp.reset());

  const auth = (user = FAKE_WP_EDITOR) => ({ Authorization: basicAuthHeader(user.username, user.appPassword) });
  const api = (route: string, style: 'pretty' | 'query' = 'pretty') => wordpressApiUrl(wp.url, style, route);
  const upload = (headers: Record<string, string>, body?: Buffer) =>
    fetch(api('/wp/v2/media'), {
      method: 'POST',
      headers: { ...auth(), ...headers },
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
  const post = (body: unknown, route = '/wp/v2/posts', user = FAKE_WP_EDITOR) =>
    fetch(api(route), {
      method: 'POST',
      headers: { ...auth(user), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('checks uploads in core’s order', async () => {
    const code = async (r: Response) => ({ status: r.status, code: ((await r.json()) as { code: string }).code });
    expect(await code(await upload({}))).toEqual({ status: 400, code: 'rest_upload_no_data' });
    expect(await code(await upload({}, PNG))).toEqual({ status: 400, code: 'rest_upload_no_content_type' });
    expect(await code(await upload({ 'Content-Type': 'image/png' }, PNG))).toEqual({
      status: 400,
      code: 'rest_upload_no_content_disposition',
    });
    expect(await code(await upload({ 'Content-Type': 'image/png', 'Content-Disposition': 'attachment' }, PNG))).toEqual(
      {
        status: 400,
        code: 'rest_upload_invalid_disposition',
      },
    );
    expect(
      await code(
        await upload(
          { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="a.png"', 'Content-MD5': 'x' },
          PNG,
        ),
      ),
    ).toEqual({ status: 412, code: 'rest_upload_hash_mismatch' });
    expect(
      await code(
        await upload(
          { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="a.png"' },
          Buffer.from('no png'),
        ),
      ),
    ).toEqual({
      status: 500,
      code: 'rest_upload_sideload_error',
    });
    expect(wp.media).toHaveLength(0);
  });

  it('stores an upload and serves it at source_url', async () => {
    const res = await upload(
      {
        'Content-Type': 'image/png',
        'Content-Disposition': 'attachment; filename="hero image.png"',
        'Content-MD5': createHash('md5').update(PNG).digest('hex'),
      },
      PNG,
    );
    expect(res.status).toBe(201);
    const media = (await res.json()) as {
      id: number;
      source_url: string;
      media_details: { width: number; height: number };
    };
    expect(media.media_details).toMatchObject({ width: 2, height: 3 });
    expect(media.source_url).toMatch(new RegExp(`^${wp.url}/wp-content/uploads/\\d{4}/\\d{2}/hero-image\\.png$`));
    expect(Buffer.from(await (await fetch(media.source_url)).arrayBuffer())).toEqual(PNG);
    expect(wp.media[0]).toMatchObject({ id: media.id, mimeType: 'image/png' });
  });

  it('contributors cannot upload; anonymous requests get 401', async () => {
    const res = await fetch(api('/wp/v2/media'), {
      method: 'POST',
      headers: {
        ...auth(FAKE_WP_CONTRIBUTOR),
        'Content-Type': 'image/png',
        'Content-Disposition': 'attachment; filename="a.png"',
      },
      body: new Uint8Array(PNG),
    });
    expect(res.status).toBe(403);
    const anonymous = await fetch(api('/wp/v2/posts'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('rest_cannot_create');
  });

  it('creates, reads and updates a post with a featured image', async () => {
    const media = (await (
      await upload({ 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename=a.png' }, PNG)
    ).json()) as { id: number };
    const created = await post({ title: 'Hello', content: '<p>Body</p>', status: 'publish', featured_media: media.id });
    expect(created.status).toBe(201);
    const body = (await created.json()) as {
      id: number;
      link: string;
      status: string;
      featured_media: number;
      date_gmt: string;
    };
    expect(body).toMatchObject({ status: 'publish', featured_media: media.id });
    expect(body.date_gmt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(body.link).toMatch(new RegExp(`^${wp.url}/\\d{4}/\\d{2}/\\d{2}/hello/$`));
    expect(created.headers.get('location')).toBe(api(`/wp/v2/posts/${body.id}`));

    const read = (await (await fetch(api(`/wp/v2/posts/${body.id}`, 'query'))).json()) as {
      title: { rendered: string };
    };
    expect(read.title.rendered).toBe('Hello');

    const updated = (await (
      await post({ title: 'Hello again', featured_media: 0 }, `/wp/v2/posts/${body.id}`)
    ).json()) as {
      title: { raw: string };
      featured_media: number;
    };
    expect(updated).toMatchObject({ title: { raw: 'Hello again' }, featured_media: 0 });
    expect(wp.posts).toHaveLength(1);
  });

  it('lists posts by slug: published ones for anyone; other statuses (any) and the edit context only for users who may edit posts', async () => {
    await post({ title: 'Public', status: 'publish', slug: 'public-1' });
    await post({ title: 'Held', status: 'pending', slug: 'held-1' });
    const list = async (query: string, headers: Record<string, string> = auth()) => {
      const res = await fetch(`${api('/wp/v2/posts')}?${query}`, { headers });
      return {
        status: res.status,
        total: res.headers.get('x-wp-total'),
        body: (await res.json()) as { slug: string; code?: string }[] & { code?: string },
      };
    };
    expect((await list('slug=held-1')).body).toEqual([]); // status defaults to publish
    const any = await list('slug=held-1,public-1&status=any&context=edit');
    expect(any.body.map((p) => p.slug).sort()).toEqual(['held-1', 'public-1']);
    expect(any.total).toBe('2');
    expect((await list('slug=public-1', {})).body.map((p) => p.slug)).toEqual(['public-1']);
    expect(await list('status=any', {})).toMatchObject({ status: 401, body: { code: 'rest_forbidden_status' } });
    expect(await list('context=edit', {})).toMatchObject({ status: 401, body: { code: 'rest_forbidden_context' } });
    expect(await list('status=published')).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' } });
  });

  it('like core, an unknown featured_media id is ignored on create (the post is saved without it)', async () => {
    const res = await post({ title: 'No image', status: 'draft', featured_media: 999 });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { featured_media: number }).featured_media).toBe(0);
    expect(wp.posts).toHaveLength(1);
  });

  it('with invalidFeaturedMedia: "error" the fake answers 400 rest_invalid_featured_media and saves nothing', async () => {
    const strict = await startFakeWordPress({ invalidFeaturedMedia: 'error' });
    try {
      const res = await fetch(wordpressApiUrl(strict.url, 'pretty', '/wp/v2/posts'), {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'x', featured_media: 999 }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'rest_invalid_featured_media',
        message: 'Invalid featured media ID.',
        data: { status: 400 },
      });
      expect(strict.posts).toHaveLength(0);
    } finally {
      await strict.stop();
    }
  });

  it('schedules: publish with a date_gmt more than 60 s ahead is stored as future', async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const future = (await (await post({ title: 'Later', status: 'publish', date_gmt: later })).json()) as {
      status: string;
      date_gmt: string;
      link: string;
    };
    expect(future).toMatchObject({ status: 'future', date_gmt: later });
    expect(future.link).toMatch(/\?p=\d+$/);
    const past = (await (await post({ title: 'Now', status: 'future', date_gmt: '2020-01-01T00:00:00' })).json()) as {
      status: string;
    };
    expect(past.status).toBe('publish');
  });

  it('contributors may not publish; bad status values are rejected', async () => {
    const res = await post({ title: 'x', status: 'publish' }, '/wp/v2/posts', FAKE_WP_CONTRIBUTOR);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('rest_cannot_publish');
    const bad = await post({ title: 'x', status: 'published' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('rest_invalid_param');
  });

  it('query-only mode: /wp-json is an HTML 404 and the same routes work via ?rest_route=', async () => {
    wp.setMode('query-only');
    const pretty = await fetch(api('/wp/v2/users/me'), { headers: auth() });
    expect(pretty.status).toBe(404);
    expect(pretty.headers.get('content-type')).toMatch(/text\/html/);
    const res = await fetch(wordpressApiUrl(wp.url, 'query', '/wp/v2/posts'), {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Q', status: 'publish' }),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: number; link: string };
    expect(created.link).toBe(`${wp.url}/?p=${created.id}`);
    expect(res.headers.get('location')).toBe(`${wp.url}/?rest_route=/wp/v2/posts/${created.id}`);
  });

  it('unknown post → 404 rest_post_invalid_id; bad credentials fail every REST call', async () => {
    const missing = await fetch(api('/wp/v2/posts/424242'), { headers: auth() });
    expect(missing.status).toBe(404);
    const wrong = await fetch(api('/wp/v2/posts/424242'), {
      headers: { Authorization: basicAuthHeader('editor', 'wrong') },
    });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { code: string }).code).toBe('incorrect_password');
  });
});

describe('fake LinkedIn: images, posts, organizations', () => {
  let li: FakeLinkedIn;
  let token: string;
  const versionHeaders = { 'LinkedIn-Version': '202601', 'X-Restli-Protocol-Version': '2.0.0' };
  beforeAll(async () => {
    li = await startFakeLinkedIn();
  });
  afterAll(() => li.stop());
  beforeEach(() => {
    li.reset();
    token = li.issueToken();
  });
  const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${li.apiUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...versionHeaders, ...init.headers },
    });

  it('uploads an image in three steps and posts it as the member', async () => {
    const owner = `urn:li:person:${li.member.sub}`;
    const init = await call('/rest/images?action=initializeUpload', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ initializeUploadRequest: { owner } }),
    });
    expect(init.status).toBe(200);
    const { value } = (await init.json()) as { value: { uploadUrl: string; image: string } };
    expect(value.image).toMatch(/^urn:li:image:/);
    expect(value.uploadUrl.startsWith(li.url)).toBe(true);
    const put = await fetch(value.uploadUrl, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'image/png' },
      body: new Uint8Array(PNG),
    });
    expect(put.status).toBe(201);
    expect(li.images[0]!.bytes).toEqual(PNG);

    const body = {
      author: owner,
      commentary: 'Hello \\(world\\)',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      content: { media: { id: value.image } },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    };
    const created = await call('/rest/posts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-restli-id')).toMatch(/^urn:li:share:\d+$/);
    expect(li.posts).toEqual([{ urn: created.headers.get('x-restli-id'), body, linkedInVersion: '202601' }]);
  });

  it('requires the version headers on /rest calls', async () => {
    const res = await fetch(`${li.apiUrl}/rest/posts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('VERSION_MISSING');
  });

  it('lists organization roles and lets administrators post as the organization', async () => {
    const acls = (await (
      await call('/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED')
    ).json()) as {
      elements: { organization: string; role: string; state: string }[];
    };
    expect(acls.elements).toEqual([
      expect.objectContaining({
        organization: 'urn:li:organization:2414183',
        role: 'ADMINISTRATOR',
        state: 'APPROVED',
      }),
    ]);
    const post = (author: string) =>
      call('/rest/posts', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          author,
          commentary: 'x',
          visibility: 'PUBLIC',
          distribution: { feedDistribution: 'MAIN_FEED' },
          lifecycleState: 'PUBLISHED',
        }),
      });
    expect((await post('urn:li:organization:2414183')).status).toBe(201);
    expect((await post('urn:li:organization:5550001')).status).toBe(403); // ANALYST may not post
  });

  it('expire-tokens: every Bearer call answers 401 REVOKED_ACCESS_TOKEN', async () => {
    li.setMode('expire-tokens');
    const res = await call('/rest/organizationAcls?q=roleAssignee');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ status: 401, serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN' });
  });
});

describe('fake Google: Drive list and Sheets values', () => {
  let google: FakeGoogle;
  let token: string;
  beforeAll(async () => {
    google = await startFakeGoogle();
  });
  afterAll(() => google.stop());
  beforeEach(() => {
    google.reset();
    token = google.issueTokens([GOOGLE_SCOPE.driveMetadataReadonly, GOOGLE_SCOPE.spreadsheets]).accessToken;
  });
  const get = (path: string) => fetch(`${google.apiUrl}${path}`, { headers: { Authorization: `Bearer ${token}` } });

  it('pages through spreadsheets and hides trashed files only when asked', async () => {
    const list = async (q: string) => {
      const names: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const params = new URLSearchParams({ q, pageSize: '100', ...(pageToken ? { pageToken } : {}) });
        const page = (await (await get(`/drive/v3/files?${params}`)).json()) as {
          files: { name: string }[];
          nextPageToken?: string;
        };
        names.push(...page.files.map((f) => f.name));
        pageToken = page.nextPageToken;
        pages++;
      } while (pageToken);
      return { names, pages };
    };
    expect(await list(`mimeType='${SPREADSHEET_MIME}' and trashed=false`)).toEqual({
      names: ['Content plan 2025', 'Editorial calendar', 'Archive 2024'],
      pages: 2,
    });
    expect((await list(`mimeType='${SPREADSHEET_MIME}'`)).names).toContain('Old ideas');
    const bad = await get(`/drive/v3/files?q=${encodeURIComponent('modifiedTime > 1')}`);
    expect(bad.status).toBe(400);
  });

  it('reads values without trailing empty cells and rows, and records writes', async () => {
    const res = await get(`/v4/spreadsheets/sheet-content-plan/values/${encodeURIComponent('Articles!A1:Z1000')}`);
    const body = (await res.json()) as { range: string; majorDimension: string; values: string[][] };
    expect(body.range).toBe('Articles!A1:Z1000');
    expect(body.majorDimension).toBe('ROWS');
    expect(body.values).toEqual([
      ['Title', 'Topic', 'Keyword', 'Publish date', 'Status'],
      ['How Small Teams Automate Publishing', 'Content automation', 'content automation', '2025-07-01'],
      ['Grüße aus Berlin', 'Travel', 'berlin'],
      [],
      ['After an empty row', 'Testing', '', '', 'done'],
    ]);
    const first = (await (await get('/v4/spreadsheets/sheet-content-plan/values/A1:B2')).json()) as {
      range: string;
      values: string[][];
    };
    expect(first).toMatchObject({
      range: 'Articles!A1:B2',
      values: [
        ['Title', 'Topic'],
        ['How Small Teams Automate Publishing', 'Content automation'],
      ],
    });
    const empty = (await (await get('/v4/spreadsheets/sheet-archive/values/Sheet1')).json()) as Record<string, unknown>;
    expect(empty.values).toBeUndefined();
    expect((await get('/v4/spreadsheets/nope/values/A1')).status).toBe(404);
    expect((await get('/v4/spreadsheets/sheet-content-plan/values/Missing!A1')).status).toBe(400);

    const put = await fetch(
      `${google.apiUrl}/v4/spreadsheets/sheet-content-plan/values/${encodeURIComponent('Articles!E2')}?valueInputOption=RAW`,
      {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ values: [['imported']] }),
      },
    );
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ updatedRange: 'Articles!E2', updatedCells: 1 });
    expect(google.sheetUpdates).toEqual([
      {
        spreadsheetId: 'sheet-content-plan',
        range: 'Articles!E2',
        majorDimension: 'ROWS',
        valueInputOption: 'RAW',
        values: [['imported']],
      },
    ]);
    const row = (await (await get('/v4/spreadsheets/sheet-content-plan/values/Articles!A2:E2')).json()) as {
      values: string[][];
    };
    expect(row.values[0]![4]).toBe('imported');
  });

  it('needs a Bearer token it issued, with a fitting scope', async () => {
    const anonymous = await fetch(`${google.apiUrl}/drive/v3/files`);
    expect(anonymous.status).toBe(401);
    const sendOnly = google.issueTokens([GOOGLE_SCOPE.gmailSend]).accessToken;
    const res = await fetch(`${google.apiUrl}/drive/v3/files`, { headers: { Authorization: `Bearer ${sendOnly}` } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 403, errors: [{ reason: 'insufficientPermissions' }] } });
  });
});
