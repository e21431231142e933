import { createHash } from 'node:crypto';
import {
  ArticleMessages,
  CommentMessages,
  CommentTextSchema,
  SCHEDULED_RUN_ACTOR,
  type ActivityEntry,
  type ArticleComment,
  type VersionId,
} from '@app/shared';
import type { ActivityRecord } from './activity.js';
import { newArticleId, versionText } from './articles.js';
import { badRequest, forbidden, notFound } from './errors.js';
import type { ArticleStore } from './ports.js';

/** A stored comment (docs/data-model.md, COMMENT# items). */
export interface CommentRecord {
  /** The article's owner: the workspace. */
  userId: string;
  articleId: string;
  id: string;
  platform: VersionId;
  authorId: string;
  /** The author's name when they wrote it. */
  authorName: string;
  text: string;
  createdAt: string;
  /** contentHash of the version's text it was made on: another hash now means the text has changed since. */
  onContent: string;
  /** A reviewer's "Request changes" (domain/review.ts): the thread marks it as such. */
  changeRequest?: true;
}

/** Comments (port; adapters/dynamo/comment-store.ts). */
export interface CommentStore {
  put(comment: CommentRecord): Promise<void>;
  /** The article's comments, oldest first. */
  list(userId: string, articleId: string): Promise<CommentRecord[]>;
  get(userId: string, articleId: string, id: string): Promise<CommentRecord | undefined>;
  /** Deletes it while `authorId` wrote it: false when it is gone or another's. */
  delete(userId: string, articleId: string, id: string, authorId: string): Promise<boolean>;
}

/** Activity entries (port; adapters/dynamo/activity-store.ts): a page newest first, and where the next starts. */
export interface ActivityReader {
  page(
    userId: string,
    articleId: string,
    limit: number,
    cursor?: string,
  ): Promise<{ records: ActivityRecord[]; next: string | null }>;
}

/** A short fingerprint of a version's text: whether a comment was made on the text as it is now. */
export const contentHash = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 22);

export interface CommentDeps {
  articles: Pick<ArticleStore, 'get'>;
  comments: CommentStore;
  activity: ActivityReader;
  /** A member's name for the activity (undefined: no such user any more). */
  nameOf: (userId: string) => Promise<string | undefined>;
  now?: () => Date;
}

export interface NewComment {
  /** The workspace owning the article. */
  userId: string;
  articleId: string;
  platform: VersionId;
  author: { id: string; name: string };
  text: string;
  changeRequest?: true;
}

const view = (comment: CommentRecord, currentContent: string): ArticleComment => ({
  id: comment.id,
  articleId: comment.articleId,
  platform: comment.platform,
  authorId: comment.authorId,
  authorName: comment.authorName,
  text: comment.text,
  createdAt: comment.createdAt,
  onEarlierVersion: comment.onContent !== contentHash(currentContent),
  ...(comment.changeRequest ? { changeRequest: true as const } : {}),
});

async function articleOf(deps: Pick<CommentDeps, 'articles'>, userId: string, articleId: string) {
  const article = await deps.articles.get(userId, articleId);
  if (!article) throw notFound(ArticleMessages.articleNotFound, 'article_not_found');
  return article;
}

/**
 * Adds a comment on one version of an article, on its text as it is now (the one way a comment is made: the
 * comments route, and any other feature that leaves a comment). The text's limits are the shared schema's.
 */
export async function addComment(
  deps: Pick<CommentDeps, 'articles' | 'comments' | 'now'>,
  input: NewComment,
): Promise<ArticleComment> {
  const parsed = CommentTextSchema().safeParse(input.text);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? CommentMessages.empty, 'invalid_comment');
  const article = await articleOf(deps, input.userId, input.articleId);
  const now = (deps.now ?? (() => new Date()))();
  const content = versionText(article, input.platform);
  const comment: CommentRecord = {
    userId: input.userId,
    articleId: input.articleId,
    id: newArticleId(now.getTime()),
    platform: input.platform,
    authorId: input.author.id,
    authorName: input.author.name,
    text: parsed.data,
    createdAt: now.toISOString(),
    onContent: contentHash(content),
    ...(input.changeRequest ? { changeRequest: true as const } : {}),
  };
  await deps.comments.put(comment);
  return view(comment, content);
}

export class CommentService {
  constructor(private readonly deps: CommentDeps) {}

  add(input: NewComment): Promise<ArticleComment> {
    return addComment(this.deps, input);
  }

  /** The article's comments on both versions, oldest first, each marked when its version has changed since. */
  async list(userId: string, articleId: string): Promise<ArticleComment[]> {
    const [article, comments] = await Promise.all([
      articleOf(this.deps, userId, articleId),
      this.deps.comments.list(userId, articleId),
    ]);
    return comments.map((comment) => view(comment, versionText(article, comment.platform)));
  }

  /** Deletes a comment of its author's; another member's answers 403 and stays. */
  async remove(userId: string, articleId: string, commentId: string, authorId: string): Promise<void> {
    await articleOf(this.deps, userId, articleId);
    const comment = await this.deps.comments.get(userId, articleId, commentId);
    if (!comment) throw notFound(CommentMessages.notFound, 'comment_not_found');
    if (comment.authorId !== authorId) throw forbidden(CommentMessages.notYours, 'not_your_comment');
    if (!(await this.deps.comments.delete(userId, articleId, commentId, authorId)))
      throw notFound(CommentMessages.notFound, 'comment_not_found');
  }

  /** One page of the article's activity, newest first, each entry with its actor's name (O(page) reads). */
  async activity(
    userId: string,
    articleId: string,
    limit: number,
    cursor?: string,
  ): Promise<{ entries: ActivityEntry[]; nextCursor: string | null }> {
    await articleOf(this.deps, userId, articleId);
    const { records, next } = await this.deps.activity.page(userId, articleId, limit, cursor);
    const ids = [...new Set(records.map((r) => r.actorId).filter((id): id is string => typeof id === 'string'))];
    const names = new Map(await Promise.all(ids.map(async (id) => [id, await this.deps.nameOf(id)] as const)));
    const entries = records.map((record): ActivityEntry => ({
      id: record.id,
      name: record.name,
      at: record.at,
      ...(record.until ? { until: record.until } : {}),
      ...(record.platform ? { platform: record.platform } : {}),
      actor:
        record.actorId === null
          ? SCHEDULED_RUN_ACTOR
          : record.actorId === undefined
            ? null
            : (names.get(record.actorId) ?? 'A former member'),
      ...(record.review ? { review: record.review } : {}),
    }));
    return { entries, nextCursor: next };
  }
}
