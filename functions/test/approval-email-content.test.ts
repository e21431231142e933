/**
 * The approval e-mail shows what will be published, as the editor's previews do: the blog as wordpressPost's
 * sanitized HTML under its featured image and title, the LinkedIn post as the card (author, text as LinkedIn
 * shows it, image); in HTML with inline styles only, with a plain-text part and the link to the /approve page.
 */
import { describe, expect, it } from 'vitest';
import { wordpressPost, type LinkedInIdentity, type Platform } from '@app/shared';
import type { ArticleRecord, ArticleService, StoredImage } from '../src/domain/articles.js';
import type { EmailService } from '../src/domain/email.js';
import type { ArticleStore, ObjectStore } from '../src/domain/ports.js';
import { ApprovalNotifier, type ApprovalEmailChannel } from '../src/domain/scheduling.js';
import { blueskyChannel } from '../src/channels/bluesky/channel.js';
import { ghostChannel } from '../src/channels/ghost/channel.js';
import { linkedinChannel } from '../src/channels/linkedin/channel.js';
import { wordpressChannel } from '../src/channels/wordpress/channel.js';
import { linkCardOrPicture } from '../src/domain/email-html.js';
import { articleRecord } from './helpers/article-record.js';

const at = '2030-11-26T00:00:00.000Z';
const image: StoredImage = {
  blogKey: 'users/u1/img-blog.jpg',
  linkedinKey: 'users/u1/img-linkedin.jpg',
  contentType: 'image/jpeg',
  description: 'a lighthouse at dawn',
  generatedAt: at,
};
const BLOG = [
  'Why approvals matter.',
  '',
  '## Schedule ahead',
  '',
  '> Offline draft: composed without AI.',
  '',
  'Read [the guide](https://example.com/guide) and **decide**.',
  '',
  '- one',
  '- two',
  '',
  '<script>alert(1)</script>',
  '',
  'A closing paragraph. '.repeat(60).trim(),
].join('\n');

type Mail = { subject: string; text: string; html: string; inline?: { cid: string; content: Buffer }[] };

async function approvalMail(
  platform: Platform,
  changes: Partial<ArticleRecord> = {},
  identity?: LinkedInIdentity,
  channels?: ApprovalEmailChannel[],
): Promise<Mail> {
  const article = articleRecord({
    title: 'Launch day',
    blog: { content: BLOG, publishedToWordPress: false, lastPublished: null, wordpressPostUrl: null },
    scheduled: { blog: at, linkedin: at },
    image,
    ...changes,
  });
  const articles = {
    get: async () => article,
    claimNotify: async () => 'claimed',
    finishNotify: async () => undefined,
    releaseNotify: async () => undefined,
    update: async () => article,
  } as unknown as ArticleStore;
  const objects: ObjectStore = {
    get: async () => ({ body: Buffer.from('jpeg bytes'), contentType: 'image/jpeg' }),
    put: async () => undefined,
    delete: async () => undefined,
  };
  const sent: Mail[] = [];
  const notifier = new ApprovalNotifier({
    articles,
    objects,
    articleService: {} as ArticleService,
    email: {
      notifier: async () => ({
        address: 'owner@example.com',
        mailer: { send: async (mail: Mail) => void sent.push(mail) },
      }),
    } as unknown as EmailService,
    activeOwner: async () => ({ email: 'owner@example.com', name: 'Owner', timezone: 'Asia/Tokyo' }),
    ...(identity ? { linkedInIdentity: async () => identity } : {}),
    ...(channels ? { channelsOf: async () => channels } : {}),
    signingKey: async () => new Uint8Array(32).fill(7),
    publicUrl: () => 'https://app.example.com',
    now: () => new Date('2030-11-25T09:00:00.000Z'),
  });
  expect(await notifier.generateAndNotify({ userId: 'u1', articleId: 'a1', platform, scheduledFor: at })).toBe('sent');
  return sent[0]!;
}

/** The opening tags of an HTML text, e.g. `<p style="…">`. */
const tags = (html: string) => html.match(/<[a-z][a-z0-9]*\b[^>]*>/g) ?? [];

describe('the approval e-mail of a blog post', () => {
  it('shows the post as WordPress gets it: featured image, title and the sanitized HTML, nothing cut', async () => {
    const mail = await approvalMail('blog');
    // The body of the post is wordpressPost's HTML, each tag with its inline style.
    const html = wordpressPost({ title: 'Launch day', blogContent: BLOG }).html;
    const unstyled = mail.html.replace(/ style="[^"]*"/g, '');
    expect(unstyled).toContain(html);
    expect(mail.html).toMatch(/<h2 style="[^"]+">Schedule ahead<\/h2>/);
    expect(mail.html).toMatch(/<blockquote style="[^"]+">/);
    expect(mail.html).toMatch(/<a style="[^"]+" href="https:\/\/example.com\/guide"/);
    expect(mail.html).not.toMatch(/##|&gt; Offline|<script/);
    expect(mail.html).toContain('A closing paragraph. A closing paragraph.');
    expect(mail.html).not.toContain('…');
    // Featured image above the title.
    const imageAt = mail.html.indexOf('src="cid:article-image"');
    expect(imageAt).toBeGreaterThan(0);
    expect(mail.html.indexOf('>Launch day</h1>')).toBeGreaterThan(imageAt);
    expect(mail.inline?.[0]?.cid).toBe('article-image');
    expect(mail.html).toContain('alt="a lighthouse at dawn"');
  });

  it('is a whole HTML document styled inline only (no <style>, no class), that links to the /approve page', async () => {
    const mail = await approvalMail('blog');
    expect(mail.html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(mail.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(mail.html).not.toMatch(/<style|<link|<script|\bclass="/);
    const body = mail.html.slice(mail.html.indexOf('<body'));
    const unstyled = tags(body).filter(
      (tag) => !/ style="/.test(tag) && !/^<(tr|strong|em|br|span|div|li|ul|ol|del|s|b|i|u|thead|tbody)\b/.test(tag),
    );
    expect(unstyled).toEqual([]);
    const links = [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    expect(links.filter((l) => l.startsWith('https://app.example.com/approve?token='))).toHaveLength(2);
    expect(links).toContain('https://app.example.com/schedule');
    expect(mail.html).toContain('Review and approve');
    expect(mail.html).toContain('scheduled Tuesday, 26 November 2030 at 09:00 GMT+9 (Asia/Tokyo).');
  });

  it('has a plain-text part with the link to the /approve page and the whole text', async () => {
    const mail = await approvalMail('blog');
    expect(mail.text).toContain('"Launch day" is ready for WordPress (blog) (scheduled Tuesday, 26 November 2030');
    expect(mail.text).toMatch(/^Review and approve: https:\/\/app\.example\.com\/approve\?token=[\w.%-]+$/m);
    expect(mail.text).toContain('Review on the Schedule page: https://app.example.com/schedule');
    expect(mail.text).toContain('Image: a lighthouse at dawn');
    // The post as text: what WordPress will show, without Markdown's marks or what the sanitizer drops.
    expect(mail.text).toContain(
      [
        'Launch day',
        '',
        'Why approvals matter.',
        '',
        'Schedule ahead',
        '',
        'Offline draft: composed without AI.',
        '',
        'Read the guide (https://example.com/guide) and decide.',
        '',
        '- one',
        '- two',
        '',
        'A closing paragraph. '.repeat(60).trim(),
      ].join('\n'),
    );
    expect(mail.text).not.toMatch(/<[a-z]|##|\*\*|alert/);
  });

  it('shows a title that looks like HTML as text, in the e-mail and in its preview', async () => {
    const title = '<img src=x onerror=alert(1)>';
    const mail = await approvalMail('blog', { title });
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).not.toMatch(/<[^>]*onerror/);
    expect(mail.html).toContain('Publish “&lt;img src=x onerror=alert(1)&gt;” to WordPress?');
    expect(mail.html).toContain('>&lt;img src=x onerror=alert(1)&gt;</h1>');
    expect(mail.html).toContain('<title>Approve for WordPress (blog): &lt;img src=x onerror=alert(1)&gt;</title>');
    expect(mail.subject).toBe(`Approve for WordPress (blog): ${title}`);
  });
});

describe('the approval e-mail of a LinkedIn post', () => {
  const text = 'Ship it (today) with @team!\nSecond line #Launch C#';

  it('shows the card: the page it goes out as, the text as LinkedIn shows it with its hashtags, the image', async () => {
    const linkedin = { content: text, publishedToLinkedIn: false, lastPublished: null, linkedinPostUrl: null };
    const mail = await approvalMail(
      'linkedin',
      { linkedin, linkedInMode: 'company' },
      { connected: true, memberName: 'Ada Lovelace', pageName: 'Example GmbH' },
    );
    expect(mail.html).toContain('>Example GmbH</div>');
    expect(mail.html).toContain('>EG</td>');
    expect(mail.html).toContain('A page you administer · Now');
    expect(mail.html).not.toContain('Ada Lovelace');
    // The commentary read back as LinkedIn shows it: no little-format escapes, line breaks kept, hashtags apart.
    expect(mail.html).toContain(
      'Ship it (today) with @team!<br>Second line <span style="color:#0a66c2;font-weight:600">#Launch</span> C#',
    );
    expect(mail.html).not.toContain('\\(');
    expect(mail.html).toContain('src="cid:article-image"');
    expect(mail.text).toContain('Ship it (today) with @team!\nSecond line #Launch C#');
  });

  it('without a LinkedIn connection: the neutral author', async () => {
    const mail = await approvalMail('linkedin');
    expect(mail.html).toContain('>LinkedIn member</div>');
    expect(mail.html).toContain('Connect LinkedIn in Settings · Now');
  });
});

describe('the approval e-mail of a blog-first bundle', () => {
  // The channels as the registry builds them: each previews its own post (its folder's email-preview.ts).
  const unused = {} as never;
  const channels: ApprovalEmailChannel[] = [
    wordpressChannel({ wordpress: unused, publisher: unused }),
    { ...linkedinChannel({ settings: unused, publisher: unused, now: () => new Date() }), social: true },
    { ...blueskyChannel({ settings: unused, client: unused }), social: true },
  ];
  const bundle = (identity?: LinkedInIdentity) =>
    approvalMail(
      'blog',
      {
        bundle: true,
        topic: 'Why approvals matter',
        linkedin: {
          content: 'Out now #Launch',
          publishedToLinkedIn: false,
          lastPublished: null,
          linkedinPostUrl: null,
        },
        versions: { bluesky: { content: 'Read it: https://example.com/guide #approvals' } },
      } as Partial<ArticleRecord>,
      identity,
      channels,
    );

  it('previews every channel the approval publishes: the blog post, then the LinkedIn and Bluesky posts with the blog post’s link card', async () => {
    const mail = await bundle({ connected: true, memberName: 'Ada Lovelace', pageName: null });
    const headings = [...mail.html.matchAll(/>What will be published on ([^<]+)</g)].map((m) => m[1]);
    expect(headings).toEqual(['WordPress', 'LinkedIn', 'Bluesky']);
    const [blog, linkedin, bluesky] = mail.html.split(/>What will be published on /).slice(1);
    expect(blog).toContain('>Launch day</h1>');
    expect(linkedin).toContain('>Ada Lovelace</div>');
    expect(linkedin).toContain('Out now <span style="color:#0a66c2;font-weight:600">#Launch</span>');
    expect(bluesky).toContain('<span style="color:#1083fe">https://example.com/guide</span>');
    expect(bluesky).toContain('<span style="color:#1083fe">#approvals</span>');
    // The social posts carry the blog post as a link card (its title and topic), not the picture.
    for (const social of [linkedin!, bluesky!]) {
      expect(social).toContain('>Launch day</div>');
      expect(social).toContain('>Why approvals matter</div>');
      expect(social).toContain('The blog post’s link, once it is live');
      expect(social).not.toContain('cid:article-image');
    }
    expect(blog).toContain('src="cid:article-image"');
    // Inline styles only.
    expect(mail.html).not.toMatch(/<style|\bclass="/);
    expect(mail.text).toContain('Approving publishes to WordPress, LinkedIn and Bluesky.');
    expect(mail.html).toContain('Publish “Launch day” to WordPress, LinkedIn and Bluesky?');
  });

  it('has each channel’s post in the plain-text part too', async () => {
    const { text } = await bundle();
    const at = (piece: string) => {
      const i = text.indexOf(piece);
      expect(i, piece).toBeGreaterThanOrEqual(0);
      return i;
    };
    expect(at('What will be published on WordPress:')).toBeLessThan(at('What will be published on LinkedIn:'));
    expect(at('What will be published on LinkedIn:')).toBeLessThan(at('Out now #Launch'));
    expect(at('Out now #Launch')).toBeLessThan(at('What will be published on Bluesky:'));
    expect(at('What will be published on Bluesky:')).toBeLessThan(at('Read it: https://example.com/guide #approvals'));
    expect(text.match(/\[Link: Launch day — the blog post’s address, once it is live\]/g)).toHaveLength(2);
  });
});

describe('the approval e-mail of a blog post on two blog channels', () => {
  const unused = {} as never;
  const channels: ApprovalEmailChannel[] = [
    wordpressChannel({ wordpress: unused, publisher: unused }),
    ghostChannel({ settings: unused, client: unused }),
  ];

  it('shows the blog post once, saying where it goes, in the HTML and the plain-text part', async () => {
    const mail = await approvalMail('blog', {}, undefined, channels);
    expect(mail.html.match(/>Launch day<\/h1>/g)).toHaveLength(1);
    expect(mail.html.match(/src="cid:article-image"/g)).toHaveLength(1);
    expect(mail.html).toContain('>What will be published</p>');
    expect(mail.html).not.toContain('What will be published on');
    expect(mail.html).toContain('>Goes to WordPress and Ghost.</p>');
    expect(mail.html).toContain('Publish “Launch day” to WordPress and Ghost?');

    expect(mail.text.match(/A closing paragraph\./g)?.length).toBe(60);
    expect(mail.text).toContain('What will be published:\nGoes to WordPress and Ghost.\n');
    expect(mail.text).toContain('Approving publishes to WordPress and Ghost.');
  });

  it('in a blog-first bundle: the blog post once for both, then each social post under its own channel', async () => {
    const social = { ...linkedinChannel({ settings: unused, publisher: unused, now: () => new Date() }), social: true };
    const mail = await approvalMail('blog', { bundle: true }, undefined, [...channels, social]);
    expect(mail.html.match(/>Launch day<\/h1>/g)).toHaveLength(1);
    expect([...mail.html.matchAll(/>(What will be published[^<]*)</g)].map((m) => m[1])).toEqual([
      'What will be published',
      'What will be published on LinkedIn',
    ]);
    expect(mail.text).toContain('What will be published:\nGoes to WordPress and Ghost.');
    expect(mail.text).toContain('What will be published on LinkedIn:');
  });
});

describe('linkCardOrPicture (what the social posts’ previews carry under their text)', () => {
  const input = {
    title: 'Launch day',
    topic: 'Why approvals matter',
    image: { description: 'a lighthouse', cid: 'c1' },
  };

  it('the blog post’s link card in a bundle (and its line in the text), else the picture at the channel’s size', () => {
    const card = linkCardOrPicture({ ...input, blogLink: true }, { cellStyle: 'padding:0', height: 627 });
    expect(card.row).toContain('The blog post’s link, once it is live');
    expect(card.row).not.toContain('cid:c1');
    expect(card.text('Out now')).toBe('Out now\n\n[Link: Launch day — the blog post’s address, once it is live]');

    const picture = linkCardOrPicture(input, { cellStyle: 'padding:0 16px 14px', height: 800 });
    expect(picture.row).toMatch(
      /^<tr><td style="padding:0 16px 14px"><img src="cid:c1" alt="a lighthouse"[^>]* height="393"/,
    );
    expect(picture.text('Out now')).toBe('Out now');
    expect(linkCardOrPicture({ ...input, image: null }, { cellStyle: '', height: 800 }).row).toBe('');
  });
});
