import {
  PLATFORMS,
  channelOfVersion,
  isPlatform,
  isPublished,
  platformStatus,
  publicationsOf,
  type CalendarEntry,
  type ChannelPostRecord,
  type StatusInput,
  type VersionId,
  goesTo,
} from '@app/shared';
import type { ArticleRecord } from './articles.js';
import type { ArticleStore } from './ports.js';

/** What places an article on the calendar: its publications (its versions' own channels', the others' posts) and schedules. */
export type CalendarState = Pick<StatusInput, 'blog' | 'linkedin' | 'scheduled'> & {
  posts?: Record<string, Pick<ChannelPostRecord, 'publishedAt'>>;
};

/** One version of an article at one instant (ISO, as toISOString writes it: sortable as text). */
export interface CalendarSlot {
  /** The blog or LinkedIn version, or a channel's own (its id) for its own schedule's slot (`scheduled.<id>`). */
  platform: VersionId;
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
  // A channel's own version's slot (`scheduled.<id>`) until its channel has the post, which is a slot of `posts` below.
  const own = Object.keys(article.scheduled ?? {})
    .filter((version) => !isPlatform(version) && !article.posts?.[version])
    .sort()
    .flatMap((version): CalendarSlot[] => {
      const at = normalized(article.scheduled[version]);
      return at ? [{ platform: version, at, kind: 'scheduled' }] : [];
    });
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
    own,
  );
}

const publishedUrl = (article: ArticleRecord, slot: CalendarSlot): string | null =>
  (slot.channel
    ? article.posts?.[slot.channel]?.url
    : slot.platform === 'blog'
      ? article.blog.wordpressPostUrl
      : article.linkedin.linkedinPostUrl) || null;

/** What the calendar asks of the channels, given by the wiring (wiring/calendar.ts). */
export interface CalendarChannels {
  /**
   * The channels a version's schedule publishes to for this owner (domain/publishing.ts, versionChannels), and with
   * `bundle` the social channels its approval carries after them (socialChannels); by id, in the registry's order.
   */
  scheduledChannels(userId: string, platform: VersionId, bundle: boolean): Promise<readonly string[]>;
  /** The channels that publish a version of their own (their ids are those versions'). */
  ownVersions: readonly string[];
}

/** Without channels given: each version's schedule is its own channel's (WordPress's, LinkedIn's, a channel's own). */
const ownChannelsOnly: CalendarChannels = {
  scheduledChannels: async (_userId, platform) => [isPlatform(platform) ? channelOfVersion(platform).id : platform],
  ownVersions: [],
};

/**
 * The owner's calendar entries in [from, to), by time: only the articles with an entry in the range are
 * read (ArticleStore.calendarRange), and each entry is derived again from its article as read now, so
 * its status and title are the article's own. A scheduled version has an entry per channel its schedule
 * publishes to that has no post of the article yet, each with the channel's version (`version`) and the schedule
 * it follows (`platform`, what a drag moves).
 */
export async function calendarOf(
  deps: { articles: ArticleStore; channels?: CalendarChannels; now?: Date },
  userId: string,
  range: { from: string; to: string },
): Promise<{ entries: CalendarEntry[]; articles: ArticleRecord[] }> {
  const now = deps.now ?? new Date();
  const channels = deps.channels ?? ownChannelsOnly;
  const from = new Date(range.from).toISOString();
  const to = new Date(range.to).toISOString();
  const articles = await deps.articles.calendarRange(userId, from, to);
  // One question per schedule kind of the range, whatever the number of articles.
  const asked = new Map<string, Promise<readonly string[]>>();
  const scheduledChannels = (platform: VersionId, bundle: boolean) => {
    const key = `${platform}:${bundle}`;
    let answer = asked.get(key);
    if (!answer) asked.set(key, (answer = channels.scheduledChannels(userId, platform, bundle)));
    return answer;
  };
  const versionOf = (channel: string, platform: VersionId): VersionId =>
    channels.ownVersions.includes(channel) ? channel : platform;
  const perArticle = await Promise.all(
    articles.map(async (article) => {
      const posted = new Set(publicationsOf(article).map((p) => p.channel));
      const slots = calendarSlotsOf(article).filter((slot) => slot.at >= from && slot.at < to);
      const entries = await Promise.all(
        slots.map(async (slot): Promise<CalendarEntry[]> => {
          const base = {
            articleId: article.id,
            platform: slot.platform,
            at: slot.at,
            kind: slot.kind,
            title: article.title,
          };
          if (slot.kind === 'published') {
            const channel =
              slot.channel ?? (isPlatform(slot.platform) ? channelOfVersion(slot.platform).id : slot.platform);
            return [
              {
                ...base,
                version: versionOf(channel, slot.platform),
                // A channel's post is published there, whatever the version's own channel did.
                status: slot.channel ? 'published' : platformStatus(article, slot.platform, now),
                url: publishedUrl(article, slot),
                channel,
              },
            ];
          }
          const status = platformStatus(article, slot.platform, now);
          const bundle = slot.platform === 'blog' && article.bundle === true;
          return (
            (await scheduledChannels(slot.platform, bundle))
              // Not a channel with its post already, nor one an import left out (Article.channels).
              .filter((channel) => !posted.has(channel) && goesTo(article, channel))
              .map((channel) => ({ ...base, version: versionOf(channel, slot.platform), status, url: null, channel }))
          );
        }),
      );
      return entries.flat();
    }),
  );
  const entries = perArticle
    .flat()
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.articleId.localeCompare(b.articleId)));
  const shown = new Set(entries.map((e) => e.articleId));
  return { entries, articles: articles.filter((a) => shown.has(a.id)) };
}
