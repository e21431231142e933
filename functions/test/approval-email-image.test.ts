/**
 * The approval e-mail shows the platform's image inline. An image change deletes the replaced files
 * right after pointing the article at the new image (replaceImage, functions/src/domain/images.ts): a
 * scheduled run that read the article just before must show the new image, not none.
 */
import { describe, expect, it } from 'vitest';
import type { ArticleRecord, ArticleService, StoredImage } from '../src/domain/articles.js';
import type { EmailService } from '../src/domain/email.js';
import type { ArticleStore, ObjectStore } from '../src/domain/ports.js';
import { ApprovalNotifier } from '../src/domain/scheduling.js';
import { articleRecord } from './helpers/article-record.js';

const at = '2030-01-01T09:00:00.000Z';
const stored = (name: string): StoredImage => ({
  blogKey: `users/u1/${name}-blog.jpg`,
  linkedinKey: `users/u1/${name}-linkedin.jpg`,
  contentType: 'image/jpeg',
  description: `the ${name} picture`,
  generatedAt: at,
});
const article = (image: StoredImage | null): ArticleRecord =>
  articleRecord({
    title: 'Launch day',
    createdAt: at,
    updatedAt: at,
    generation: { status: 'done', updatedAt: at },
    scheduled: { blog: null, linkedin: at },
    image,
  });

type Mail = { text: string; html: string; inline?: { content: Buffer; contentType: string }[] };

async function approvalMail(
  initial: ArticleRecord,
  files: Map<string, Buffer>,
  onRead: (key: string) => ArticleRecord | undefined,
) {
  let current = initial;
  const articles = {
    get: async () => current,
    claimNotify: async () => 'claimed',
    finishNotify: async () => undefined,
    releaseNotify: async () => undefined,
    update: async () => current,
  } as unknown as ArticleStore;
  const objects: ObjectStore = {
    get: async (key) => {
      // The image change lands now: the article points at the new image and the old files are gone.
      const replaced = onRead(key);
      if (replaced) current = replaced;
      const body = files.get(key);
      return body ? { body, contentType: 'image/jpeg' } : undefined;
    },
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
    activeOwner: async () => ({ email: 'owner@example.com', name: 'Owner', timezone: 'UTC' }),
    signingKey: async () => new Uint8Array(32).fill(7),
    publicUrl: () => 'https://app.example.com',
    now: () => new Date('2029-12-31T09:00:00.000Z'),
  });
  expect(
    await notifier.generateAndNotify({ userId: 'u1', articleId: 'a1', platform: 'linkedin', scheduledFor: at }),
  ).toBe('sent');
  return sent[0]!;
}

describe('the approval e-mail and an image replaced meanwhile', () => {
  it('the old file gone after the run read the article: the e-mail shows the new image and names it', async () => {
    const older = stored('older');
    const newer = stored('newer');
    const newBytes = Buffer.from('new picture');
    const files = new Map([[newer.linkedinKey, newBytes]]);
    const mail = await approvalMail(article(older), files, (key) =>
      key === older.linkedinKey ? article(newer) : undefined,
    );
    expect(mail.inline?.[0]?.content.equals(newBytes)).toBe(true);
    expect(mail.text).toContain('Image: the newer picture');
    expect(mail.html).toContain('alt="the newer picture"');
  });

  it('a file lost without a newer image: the e-mail goes without the picture', async () => {
    const lost = stored('lost');
    const mail = await approvalMail(article(lost), new Map(), () => undefined);
    expect(mail.inline).toBeUndefined();
    expect(mail.html).not.toContain('cid:article-image');
  });
});
