import { isPlatform, type Platform, type VersionId } from './articles.js';

/** Per platform (docs/product.md, Schedule). */
export type PlatformStatus = 'published' | 'content-created' | 'scheduled' | 'not-scheduled';
export type OverallStatus = PlatformStatus;

/** The fields the status rules read; the full Article satisfies it. */
export interface StatusInput {
  blog: { content: string; publishedToWordPress: boolean; lastPublished: string | null };
  linkedin: { content: string; publishedToLinkedIn: boolean; lastPublished: string | null };
  scheduled: { blog: string | null; linkedin: string | null };
  lastError?: { code: string; message: string } | null;
}

export function isPublished(article: StatusInput, platform: Platform): boolean {
  const version = article[platform];
  const flag = platform === 'blog' ? article.blog.publishedToWordPress : article.linkedin.publishedToLinkedIn;
  return flag && Boolean(version.lastPublished);
}

/** Whether a version went out: the blog and LinkedIn ones by their flags, a channel's own (VersionId) by its post. */
export function isVersionPublished(
  article: StatusInput & { posts?: Readonly<Record<string, unknown>> },
  version: VersionId,
): boolean {
  return isPlatform(version) ? isPublished(article, version) : Boolean(article.posts?.[version]);
}

export function platformStatus(article: StatusInput, platform: Platform, now: Date = new Date()): PlatformStatus {
  if (isPublished(article, platform)) return 'published';
  const at = article.scheduled[platform];
  if (!at) return 'not-scheduled';
  if (Date.parse(at) > now.getTime()) return 'scheduled';
  // The time has passed: content-created once the text exists; until then it is still on its way.
  return article[platform].content.trim() ? 'content-created' : 'scheduled';
}

/** The card badge: both not-scheduled → not-scheduled; any scheduled → scheduled; any content-created → content-created; else published. */
export function overallStatus(article: StatusInput, now: Date = new Date()): OverallStatus {
  const statuses = [platformStatus(article, 'blog', now), platformStatus(article, 'linkedin', now)];
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
  platform: Platform,
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
