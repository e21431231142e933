import {
  articleExcerpt,
  isVersionPublished,
  type Article,
  type ArticleHealth,
  type ArticleImage,
  type ImageStatus,
  type SlotHealth,
  type Platform,
  isPlatform,
  type VersionReview,
} from '@app/shared';
import type { ArticleRecord, ImageState, StoredImage } from '../domain/articles.js';

/** The API's view of an article: the stored record as the SPA reads it, with the image's URLs. */

/** The image's URL; `t` (its version) makes the URL change when the image does, so it may be cached forever. */
export const imagePath = (id: string, platform: Platform, version: string) =>
  `${imagePreviewPath(id, platform)}&t=${encodeURIComponent(version)}`;

/** The image's URL without its version (what the LinkedIn webhook sends). */
export const imagePreviewPath = (id: string, platform: Platform) => `/api/image/preview/${id}?platform=${platform}`;

export function toApiImage(articleId: string, image: StoredImage | null): ArticleImage | null {
  return image
    ? {
        url: imagePath(articleId, 'blog', image.generatedAt),
        linkedinUrl: imagePath(articleId, 'linkedin', image.generatedAt),
        description: image.description,
        generatedAt: image.generatedAt,
        source: image.source ?? 'generated',
        focalPoint: image.focalPoint ?? null,
        original: image.original
          ? {
              url: `/api/image/original/${articleId}?t=${encodeURIComponent(image.generatedAt)}`,
              width: image.original.width,
              height: image.original.height,
            }
          : null,
      }
    : null;
}

/**
 * The health of each version's current slot where its check found problems (domain/connection-health.ts): a note of
 * an earlier slot, or of a version published since, is not shown.
 */
function healthView(a: ArticleRecord): { health?: ArticleHealth } {
  // Every version's note (`<version>Health`, domain/articles.ts healthAttribute): the blog's, LinkedIn's, a channel's own.
  const health: ArticleHealth = {};
  for (const [attribute, value] of Object.entries(a)) {
    const version = /^(.+)Health$/.exec(attribute)?.[1];
    const note = value as SlotHealth | null | undefined;
    if (
      version &&
      note?.problems?.length &&
      note.scheduledFor === (a.scheduled as Record<string, string | null | undefined>)[version] &&
      !isVersionPublished(a, version)
    )
      health[version] = note;
  }
  return Object.keys(health).length ? { health } : {};
}

/** The reviews of the channels' own versions (`<id>Review`, domain/articles.ts reviewAttribute), by version. */
function ownReviews(a: ArticleRecord): Record<string, VersionReview> | undefined {
  const found = Object.entries(a).flatMap(([attribute, value]) => {
    const version = /^(.+)Review$/.exec(attribute)?.[1];
    return version && !isPlatform(version) && value ? [[version, value as VersionReview] as const] : [];
  });
  return found.length ? Object.fromEntries(found) : undefined;
}

export function toApiArticle(a: ArticleRecord): Article {
  return {
    _id: a.id,
    id: a.id,
    title: a.title,
    topic: a.topic,
    keyword: a.keyword,
    details: a.details,
    imageDescription: a.imageDescription,
    tags: a.tags,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    blog: a.blog,
    linkedin: a.linkedin,
    scheduled: a.scheduled,
    lastError: a.lastError,
    linkedInMode: a.linkedInMode,
    generation: a.generation,
    image: toApiImage(a.id, a.image),
    // Only where a review was ever started (team workspaces), so a personal article's answer is as it was.
    ...(a.blogReview || a.linkedinReview || ownReviews(a)
      ? { review: { blog: a.blogReview ?? null, linkedin: a.linkedinReview ?? null, ...ownReviews(a) } }
      : {}),
    // Only where a channel of the registry published, so other articles' answers are as they were.
    ...(a.posts && Object.keys(a.posts).length ? { posts: a.posts } : {}),
    ...(a.bundle ? { bundle: true as const } : {}),
    // Only where an import named its channels (Article.channels).
    ...(a.channels?.length ? { channels: a.channels } : {}),
    // Only where a channel's own version exists (docs/data-model.md, Articles), for the same reason.
    ...(a.versions && Object.keys(a.versions).length ? { versions: a.versions } : {}),
    ...healthView(a),
  };
}

/** Characters of each long text (details, blog and LinkedIn versions) that a list answer carries. */
export const LIST_PREVIEW_CHARS = 100;

function preview(text: string): string {
  const t = text.trim();
  if (t.length <= LIST_PREVIEW_CHARS) return t;
  // Never cut a surrogate pair in two.
  const end = /[\uD800-\uDBFF]/.test(t[LIST_PREVIEW_CHARS - 1]!) ? LIST_PREVIEW_CHARS - 1 : LIST_PREVIEW_CHARS;
  return `${t.slice(0, end)}…`;
}

/**
 * An article in a list answer (GET /api/articles, /unpublished, /published): every field, but the
 * long texts cut to a preview, and its first lines as plain text (`excerpt`). Lists feed cards, statuses, history and charts, which need whether
 * a version has text, not all of it; the full text comes from GET /api/articles/{id}. This keeps a
 * list of hundreds of articles small (and within Lambda's 6 MB answer limit: a blog version alone
 * may be 100,000 characters).
 */
export function toApiListArticle(a: ArticleRecord): Article {
  const article = toApiArticle(a);
  return {
    ...article,
    details: preview(article.details),
    blog: { ...article.blog, content: preview(article.blog.content) },
    linkedin: { ...article.linkedin, content: preview(article.linkedin.content) },
    // The card's first lines, from the whole texts (the previews above are too short to say much).
    excerpt: articleExcerpt(a),
  };
}

/** GET /api/image/{id} (and the start of a generation): the image, if any, and its generation's state. */
export function toApiImageStatus(s: ImageState): ImageStatus {
  const image = toApiImage(s.articleId, s.image);
  return { success: true, hasImage: image !== null, image, pending: s.pending, error: s.error };
}
