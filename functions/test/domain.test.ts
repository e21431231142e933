import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/domain/passwords.js';
import { readCookie, Sessions } from '../src/domain/sessions.js';
import type { ArticleRecord } from '../src/domain/articles.js';
import type { ArticleStore, Scheduler } from '../src/domain/ports.js';
import { scheduleArticle } from '../src/domain/scheduling.js';

describe('passwords', () => {
  it('hashes with a per-user salt and verifies only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'garbage')).toBe(false);
  });
});

describe('sessions', () => {
  const key = async () => new TextEncoder().encode('k'.repeat(48));
  it('issues a cookie whose token verifies to the user, and refuses other keys and expired tokens', async () => {
    const sessions = new Sessions({ key, ttlSeconds: 60, secureCookie: true });
    const cookie = await sessions.issue('user-1');
    expect(cookie).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=60; Secure$/);
    const token = readCookie([cookie.split(';')[0]!], 'session');
    expect(await sessions.verify(token)).toMatchObject({ userId: 'user-1', version: 0, id: expect.any(String) });
    const next = readCookie([(await sessions.issue('user-1', 3)).split(';')[0]!], 'session');
    expect(await sessions.verify(next)).toMatchObject({ userId: 'user-1', version: 3 });
    expect((await sessions.verify(next))!.id).not.toBe((await sessions.verify(token))!.id);
    const other = new Sessions({
      key: async () => new TextEncoder().encode('x'.repeat(48)),
      ttlSeconds: 60,
      secureCookie: false,
    });
    expect(await other.verify(token)).toBeUndefined();
    const expired = new Sessions({ key, ttlSeconds: -10, secureCookie: false });
    const old = readCookie([(await expired.issue('user-1')).split(';')[0]!], 'session');
    expect(await sessions.verify(old)).toBeUndefined();
    expect(sessions.clear()).toMatch(/^session=; .*Max-Age=0/);
  });

  it('reads a cookie among several', () => {
    expect(readCookie(['a=1', 'session=tok; other=2'], 'session')).toBe('tok');
    expect(readCookie(undefined, 'session')).toBeUndefined();
  });
});

describe('scheduleArticle', () => {
  /** Just what scheduleArticle uses of the article store: get and update of one article. */
  function oneArticleStore(scheduled: { blog: string | null; linkedin: string | null }) {
    const article = {
      id: 'a1',
      scheduled: { ...scheduled },
      // Unpublished versions: scheduling refuses a platform that is live already.
      blog: { publishedToWordPress: false },
      linkedin: { publishedToLinkedIn: false },
    } as unknown as ArticleRecord;
    const store = {
      get: async () => structuredClone(article),
      update: async (_userId: string, _id: string, changes: Record<string, unknown>) => {
        for (const [key, value] of Object.entries(changes)) {
          const [head, platform] = key.split('.');
          if (head === 'scheduled') (article.scheduled as Record<string, unknown>)[platform!] = value;
        }
        return structuredClone(article);
      },
    } as unknown as ArticleStore;
    return { store, article };
  }

  it('puts the previous time back when the schedule cannot be made, so the card never shows a time that will not run', async () => {
    const previous = '2030-01-01T09:00:00.000Z';
    const { store, article } = oneArticleStore({ blog: previous, linkedin: null });
    const scheduler = {
      schedule: async () => Promise.reject(new Error('ThrottlingException')),
      cancel: async () => {},
    } as unknown as Scheduler;
    const now = new Date('2029-12-01T00:00:00.000Z');
    await expect(
      scheduleArticle({ articles: store, scheduler, now }, 'u1', 'a1', {
        platform: 'blog',
        datetime: '2030-02-01T10:00:00.000Z',
      }),
    ).rejects.toThrow('ThrottlingException');
    expect(article.scheduled.blog).toBe(previous);

    const { store: fresh, article: unscheduled } = oneArticleStore({ blog: null, linkedin: null });
    await expect(
      scheduleArticle({ articles: fresh, scheduler, now }, 'u1', 'a1', {
        platform: 'linkedin',
        datetime: '2030-02-01T10:00:00.000Z',
      }),
    ).rejects.toThrow();
    expect(unscheduled.scheduled.linkedin).toBeNull();
  });
});
