import {
  PLATFORMS,
  channelOfVersion,
  isPublished,
  platformStatus,
  type CalendarEntry,
  type ChannelPostRecord,
  type Platform,
  type StatusInput,
} from '@app/shared';
import type { ArticleRecord } from './articles.js';
import type { ArticleStore } from './ports.js';

/** What places an article on the calendar: its publications (its versions' own channels', the others' posts) and schedules. */
export type CalendarState = Pick<StatusInput, 'blog' | 'linkedin' | 'scheduled'> & {
  posts?: Record<string, Pick<ChannelPostRecord, 'publishedAt'>>;
};

/** One platform of an article at one instant (ISO, as toISOString writes it: sortable as text). */
export interface CalendarSlot {
  platform: Platform;
  at: string;
  kind: 'scheduled' | 'published';
  /**
   * A published slot of a channel with a post of its own (`posts`, not the version's own channel): its id. Such a
   * slot goes with the blog version, as those channels' posts do (their `platform`, functions/src/channels/).
   */
  channel?: string;
}

const normalized = (time: string | null | undefined): string | undefined => {
  if (!time) return undefined;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
};

/**
 * Where an article stands on the calendar: per platform, its publication time once published there
 * (isPublished, as the Schedule page's status reads it), else its scheduled time; nowhere without either.
 * The store keeps one entry item per slot (adapters/dynamo/article-store.ts), the API answers them.
 */
export function calendarSlotsOf(article: CalendarState): CalendarSlot[] {
  return PLATFORMS.flatMap((platform): CalendarSlot[] => {
    const version = article[platform] as { lastPublished: string | null } | undefined;
    if (version && isPublished(article as StatusInput, platform)) {
      const at = normalized(version.lastPublished);
      return at ? [{ platform, at, kind: 'published' }] : [];
    }
    const at = normalized(article.scheduled?.[platform]);
    return at ? [{ platform, at, kind: 'scheduled' }] : [];
  }).concat(
    Object.entries(article.posts ?? {}).flatMap(([channel, post]): CalendarSlot[] => {
      const at = normalized(post?.publishedAt);
      return at ? [{ platform: 'blog', at, kind: 'published', channel }] : [];
    }),
  );
}

const publishedUrl = (article: ArticleRecord, slot: CalendarSlot): string | null =>
  (slot.channel
    ? article.posts?.[slot.channel]?.url
    : slot.platform === 'blog'
      ? article.blog.wordpressPostUrl
      : article.linkedin.linkedinPostUrl) || null;

/**
 * The owner's calendar entries in [from, to), by time: only the articles with an entry in the range are
 * read (ArticleStore.calendarRange), and each entry is derived again from its article as read now, so
 * its status and title are the article's own.
 */
export async function calendarOf(
  deps: { articles: ArticleStore; now?: Date },
  userId: string,
  range: { from: string; to: string },
): Promise<{ entries: CalendarEntry[]; articles: ArticleRecord[] }> {
  const now = deps.now ?? new Date();
  const from = new Date(range.from).toISOString();
  const to = new Date(range.to).toISOString();
  const articles = await deps.articles.calendarRange(userId, from, to);
  const entries = articles
    .flatMap((article) =>
      calendarSlotsOf(article)
        .filter((slot) => slot.at >= from && slot.at < to)
        .map((slot): CalendarEntry => ({
          articleId: article.id,
          platform: slot.platform,
          at: slot.at,
          kind: slot.kind,
          // A channel's post is published there, whatever the version's own channel did.
          status: slot.channel ? 'published' : platformStatus(article, slot.platform, now),
          title: article.title,
          url: slot.kind === 'published' ? publishedUrl(article, slot) : null,
          channel: slot.kind === 'published' ? (slot.channel ?? channelOfVersion(slot.platform).id) : null,
        })),
    )
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.articleId.localeCompare(b.articleId)));
  const shown = new Set(entries.map((e) => e.articleId));
  return { entries, articles: articles.filter((a) => shown.has(a.id)) };
}
