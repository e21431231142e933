import { createHash } from 'node:crypto';
import { ACTIVITY_PAGE_DEFAULT, ARTICLE_PAGE_DEFAULT, CommentMessages, type VersionId } from '@app/shared';
import type { ArticleListAnswer, ArticlePageAnswer, ArticleSavedAnswer } from '@app/shared/api';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { CurrentWorkspace } from '../domain/workspaces.js';
import { deps } from '../wiring/deps.js';
import { articleServices } from '../wiring/articles.js';
import { calendarServices } from '../wiring/calendar.js';
import { comments } from '../wiring/comments.js';
import { displayName } from '../domain/workspaces.js';
import { calendarOf } from '../domain/calendar.js';
import { requiredReview } from '../domain/review-edit.js';
import { badRequest } from '../domain/errors.js';
import { loadChannelVersion } from '../channels/registry.js';
import { toApiArticle, toApiListArticle } from './article-view.js';
import { requestedVersion } from './versions.js';
import { defineHandlers } from './handlers.js';
import { ListCache } from './list-cache.js';
import {
  acceptsGzip,
  gzipBase64,
  json,
  jsonGzip,
  jsonText,
  notModified,
  serialize,
  type JsonText,
  type Reply,
} from './response.js';

/** Per process: list answers are reused until one of the owner's articles changes (list-cache.ts). */
const lists = new ListCache();
/** Smaller answers are sent as they are. */
const GZIP_FROM_CHARS = 4096;
/**
 * A list read through an eventually consistent index (the published history: its pages come from
 * GSI2, whose newest entries may lag a write by a moment) is kept and given an ETag only once the
 * owner's articles have been unchanged this long; until then each request reads it again, so an
 * answer that missed a just-published article is never held on to (here or in the browser) under
 * the new version. The unpublished list needs no wait: its store read shows every write
 * (DynamoArticleStore.listOpen), as the base-table pages do.
 */
const INDEX_SETTLE_MS = 10_000;

type ListName = 'all' | 'unpublished' | 'published';
interface PageParams {
  limit?: number;
  cursor?: string;
}

/** A strong-enough tag of one answer: whose list, at which version, which list and page. */
/** Moved whenever the list answers change shape, so a browser's copy from before a deployment is not reused. */
const LIST_ANSWER_FORMAT = '2';
const etagOf = (parts: string[]) =>
  `W/"${createHash('sha256')
    .update(JSON.stringify([LIST_ANSWER_FORMAT, ...parts]))
    .digest('base64url')
    .slice(0, 32)}"`;

/** Whether If-None-Match names `etag` (weak comparison, as RFC 9110 asks of GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/**
 * A list of the owner's articles (each with previews of its long texts: toApiListArticle),
 * gzipped when the client accepts it, as browsers do. Both forms are built once per list version.
 *
 * Conditional requests: the answer's ETag is derived from the owner's `articlesVersion` (read with
 * the session's user, or a team workspace's record, before anything else), the list and the page asked for, so a request whose
 * If-None-Match names it is answered 304 before any article is read: the Schedule page's 15-second
 * refresh costs nothing while nothing changed. `Cache-Control: private, no-cache` lets the browser
 * keep the answer and revalidate it on every fetch; its HTTP cache turns a 304 back into the kept
 * answer, so the SPA's fetch sees a 200 either way.
 */
async function list<T extends ArticleListAnswer>(
  which: ListName,
  page: PageParams | undefined,
  workspace: CurrentWorkspace,
  event: APIGatewayProxyEventV2,
  build: () => Promise<T>,
): Promise<Reply<T>> {
  const owner = `${deps().config.tableName}/${workspace.id}`;
  // Read with the session's user (a team workspace: with its record) at the start of this request, so before the list is.
  const version = String(workspace.articlesVersion ?? 0);
  const answer = `${which}:${page?.limit ?? ''}:${page?.cursor ?? ''}`;
  const changedAt = Date.parse(workspace.articlesChangedAt ?? '');
  const settled = which !== 'published' || !(Date.now() - changedAt < INDEX_SETTLE_MS);
  const gzip = (text: JsonText<T>) => text.length >= GZIP_FROM_CHARS && acceptsGzip(event.headers['accept-encoding']);
  if (!settled) {
    const text = serialize<T>(await build());
    return gzip(text) ? jsonGzip(200, await gzipBase64(text)) : jsonText(200, text);
  }
  const etag = etagOf([owner, version, answer]);
  const caching = { etag, 'cache-control': 'private, no-cache' };
  if (matches(event.headers['if-none-match'], etag)) return notModified<T>(caching);
  const text = await lists.get(owner, version, answer, async () => serialize<T>(await build()));
  const reply = gzip(text)
    ? jsonGzip(200, await lists.get(owner, version, `${answer}.gz`, () => gzipBase64(text)))
    : jsonText(200, text);
  return { ...reply, headers: { ...reply.headers, ...caching } };
}

/** One page of `which` as the API answers it. */
async function pageOf(userId: string, which: 'all' | 'published', page: PageParams): Promise<ArticlePageAnswer> {
  const { articles, nextCursor } = await articleServices().articles.page(userId, which, {
    limit: page.limit ?? ARTICLE_PAGE_DEFAULT,
    cursor: page.cursor,
  });
  return { articles: articles.map(toApiListArticle), nextCursor };
}

async function updateContent(
  workspace: CurrentWorkspace,
  editorId: string,
  id: string,
  platform: VersionId,
  content: string,
): Promise<Reply<ArticleSavedAnswer>> {
  // A team workspace's version approved (or sent back) returns to review when edited (domain/review-edit.ts).
  const article = await articleServices().articles.updateContent(
    workspace.id,
    id,
    platform,
    content,
    editorId,
    requiredReview(workspace),
  );
  return json(200, { success: true, article: toApiArticle(article) });
}

export const handlers = defineHandlers('articles', {
  'articles.create': async ({ user, workspace, body }) => {
    // A team workspace's article keeps who created it: the first author of its versions' reviews.
    const article = await articleServices().articles.create(workspace.id, body, [], {
      actorId: user.id,
      createdBy: workspace.personal ? undefined : user.id,
    });
    return json(201, { success: true, article: toApiArticle(article) });
  },
  // Without parameters: the first page, as for the published list.
  'articles.list': ({ workspace, query, event }) =>
    list<ArticlePageAnswer>('all', query, workspace, event, () => pageOf(workspace.id, 'all', query)),
  'articles.unpublished': ({ workspace, event }) =>
    list<ArticleListAnswer>('unpublished', undefined, workspace, event, async () => ({
      articles: (await articleServices().articles.unpublished(workspace.id)).map(toApiListArticle),
    })),
  // Only the range asked for is read (domain/calendar.ts); never cached: statuses move with the clock.
  'articles.calendar': async ({ workspace, query }) => {
    const { entries, articles } = await calendarOf(calendarServices(), workspace.id, query);
    return json(200, {
      from: new Date(query.from).toISOString(),
      to: new Date(query.to).toISOString(),
      entries,
      articles: articles.map(toApiListArticle),
    });
  },
  // Without parameters: the first page (the answer never grows with the history).
  'articles.published': ({ workspace, query, event }) =>
    list<ArticlePageAnswer>('published', query, workspace, event, () => pageOf(workspace.id, 'published', query)),
  'articles.get': async ({ workspace, params }) =>
    json(200, { article: toApiArticle(await articleServices().articles.get(workspace.id, params.id)) }),
  'articles.updateBlog': ({ user, workspace, params, body }) =>
    updateContent(workspace, user.id, params.id, 'blog', body.content),
  'articles.updateLinkedIn': ({ user, workspace, params, body }) =>
    updateContent(workspace, user.id, params.id, 'linkedin', body.content),
  /** A channel's own version: its channel's text rule (400, nothing saved), then the same save as the others'. */
  'articles.updateVersion': async ({ user, workspace, params, body }) => {
    const version = await loadChannelVersion(params.channel);
    const problem = version.textProblem(body.content);
    if (problem) throw badRequest(problem, 'text_too_long');
    return updateContent(workspace, user.id, params.id, version.id, body.content);
  },
  'articles.retryGeneration': async ({ user, workspace, params }) => {
    const article = await articleServices().articles.retryGeneration(workspace.id, params.id, user.id);
    return json(202, { success: true, article: toApiArticle(article) });
  },
  'articles.comments': async ({ workspace, params }) =>
    json(200, { comments: await comments().list(workspace.id, params.id) }),
  'articles.addComment': async ({ workspace, user, params, body }) => {
    const comment = await comments().add({
      userId: workspace.id,
      articleId: params.id,
      platform: requestedVersion(body.platform),
      author: { id: user.id, name: displayName(user) },
      text: body.text,
    });
    return json(201, { comment });
  },
  'articles.deleteComment': async ({ workspace, user, params }) => {
    await comments().remove(workspace.id, params.id, params.commentId, user.id);
    return json(200, { message: CommentMessages.deleted });
  },
  'articles.activity': async ({ workspace, params, query }) =>
    json(200, await comments().activity(workspace.id, params.id, query.limit ?? ACTIVITY_PAGE_DEFAULT, query.cursor)),
  'articles.gptEdit': async ({ user, workspace, body }) => {
    // GPT edit saves the version's new text: an edit like any other for its review (domain/review-edit.ts).
    const { editedContent, article } = await articleServices().articles.gptEdit(
      workspace.id,
      body,
      user.id,
      requiredReview(workspace),
    );
    return json(200, { success: true, editedContent, article: toApiArticle(article) });
  },
});
