import { isPlatform, type ScheduledTimes, type VersionId } from './articles.js';

/** Per platform (docs/product.md, Schedule). */
export type PlatformStatus = 'published' | 'content-created' | 'scheduled' | 'not-scheduled';
export type OverallStatus = PlatformStatus;

/** The fields the status rules read; the full Article satisfies it. */
export interface StatusInput {
  blog: { content: string; publishedToWordPress: boolean; lastPublished: string | null };
  linkedin: { content: string; publishedToLinkedIn: boolean; lastPublished: string | null };
  scheduled: ScheduledTimes;
  lastError?: { code: string; message: string } | null;
  /** A channel's own version's text, by its id (Article.versions). */
  versions?: Readonly<Record<string, { content: string }>>;
  /** The posts of the channels without fields of their own, by channel id (Article.posts): a channel's own version is published once its channel has its post. */
  posts?: Readonly<Record<string, unknown>>;
}

export function isPublished(article: StatusInput, platform: VersionId): boolean {
  if (!isPlatform(platform)) return Boolean(article.posts?.[platform]);
  const version = article[platform];
  const flag = platform === 'blog' ? article.blog.publishedToWordPress : article.linkedin.publishedToLinkedIn;
  return flag && Boolean(version.lastPublished);
}

/** Whether a version went out: the blog and LinkedIn ones by their flags, a channel's own (VersionId) by its post. */
export const isVersionPublished = isPublished;

export function platformStatus(article: StatusInput, platform: VersionId, now: Date = new Date()): PlatformStatus {
  if (isPublished(article, platform)) return 'published';
  const at = article.scheduled[platform];
  if (!at) return 'not-scheduled';
  if (Date.parse(at) > now.getTime()) return 'scheduled';
  // The time has passed: content-created once the text exists; until then it is still on its way.
  const text = isPlatform(platform) ? article[platform].content : (article.versions?.[platform]?.content ?? '');
  return text.trim() ? 'content-created' : 'scheduled';
}

/**
 * The card badge: both not-scheduled → not-scheduled; any scheduled → scheduled; any content-created → content-created;
 * else published. A channel's own version counts once it has a slot (`scheduled.<id>`).
 */
export function overallStatus(article: StatusInput, now: Date = new Date()): OverallStatus {
  const own = Object.keys(article.scheduled).filter((v) => !isPlatform(v) && article.scheduled[v]);
  const statuses = [
    platformStatus(article, 'blog', now),
    platformStatus(article, 'linkedin', now),
    ...own.map((version) => platformStatus(article, version, now)),
  ];
  if (statuses.every((s) => s === 'not-scheduled')) return 'not-scheduled';
  if (statuses.includes('scheduled')) return 'scheduled';
  if (statuses.includes('content-created')) return 'content-created';
  return 'published';
}

export const STATUS_LABELS: Record<OverallStatus, string> = {
  'not-scheduled': 'Not Scheduled',
  scheduled: 'Scheduled',
  'content-created': 'Content Created',
  published: 'All Content Published',
};

export const QUOTA_BADGE = 'Not enough credit';
export const QUOTA_TOOLTIP_FALLBACK = 'OpenAI credits insufficient';
export const QUOTA_BANNER = 'OpenAI credits are insufficient. Please update your billing or try again later.';

/** The badge of one platform: "Not enough credit" when AI credit ran out and it is not published. */
export function platformBadge(
  article: StatusInput,
  platform: VersionId,
  now: Date = new Date(),
): { label: string; tooltip?: string } {
  const status = platformStatus(article, platform, now);
  if (status !== 'published' && article.lastError?.code === 'insufficient_quota') {
    return { label: QUOTA_BADGE, tooltip: article.lastError.message || QUOTA_TOOLTIP_FALLBACK };
  }
  return { label: STATUS_LABELS[status] };
}

/**
 * One platform's own status as a row label. STATUS_LABELS are the card badge's texts, where
 * "published" means everything is out; for a single platform it simply reads Published.
 */
export const PLATFORM_STATUS_LABELS: Record<PlatformStatus, string> = { ...STATUS_LABELS, published: 'Published' };
