import type { Platform } from '@app/shared';
import type { ArticleListAnswer, ArticleSavedAnswer } from '@app/shared/api';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { UserRecord } from '../domain/users.js';
import { deps } from '../wiring/deps.js';
import { articleServices } from '../wiring/articles.js';
import { toApiArticle, toApiListArticle } from './article-view.js';
import { defineHandlers } from './handlers.js';
import { ListCache } from './list-cache.js';
import { acceptsGzip, gzipBase64, json, jsonGzip, jsonText, serialize, type Reply } from './response.js';

/** Per process: list answers are reused until one of the owner's articles changes (list-cache.ts). */
const lists = new ListCache();
/** Smaller answers are sent as they are. */
const GZIP_FROM_CHARS = 4096;

/**
 * The lists of the owner's articles (each with previews of its long texts: toApiListArticle),
 * gzipped when the client accepts it, as browsers do. Both forms are built once per list version.
 */
async function list(
  which: 'all' | 'published' | 'unpublished',
  user: UserRecord,
  event: APIGatewayProxyEventV2,
): Promise<Reply<ArticleListAnswer>> {
  const owner = `${deps().config.tableName}/${user.id}`;
  // Read with the session's user at the start of this request, so before the list is.
  const version = String(user.articlesVersion ?? 0);
  const text = await lists.get(owner, version, which, async () =>
    serialize<ArticleListAnswer>({
      articles: (await articleServices().articles.list(user.id, which)).map(toApiListArticle),
    }),
  );
  if (text.length < GZIP_FROM_CHARS || !acceptsGzip(event.headers['accept-encoding'])) return jsonText(200, text);
  return jsonGzip(200, await lists.get(owner, version, `${which}.gz`, () => gzipBase64(text)));
}

async function updateContent(
  userId: string,
  id: string,
  platform: Platform,
  content: string,
): Promise<Reply<ArticleSavedAnswer>> {
  const article = await articleServices().articles.updateContent(userId, id, platform, content);
  return json(200, { success: true, article: toApiArticle(article) });
}

export const handlers = defineHandlers('articles', {
  'articles.create': async ({ user, body }) => {
    const article = await articleServices().articles.create(user.id, body);
    return json(201, { success: true, article: toApiArticle(article) });
  },
  'articles.list': ({ user, event }) => list('all', user, event),
  'articles.unpublished': ({ user, event }) => list('unpublished', user, event),
  'articles.published': ({ user, event }) => list('published', user, event),
  'articles.get': async ({ user, params }) =>
    json(200, { article: toApiArticle(await articleServices().articles.get(user.id, params.id)) }),
  'articles.updateBlog': ({ user, params, body }) => updateContent(user.id, params.id, 'blog', body.content),
  'articles.updateLinkedIn': ({ user, params, body }) => updateContent(user.id, params.id, 'linkedin', body.content),
  'articles.retryGeneration': async ({ user, params }) => {
    const article = await articleServices().articles.retryGeneration(user.id, params.id);
    return json(202, { success: true, article: toApiArticle(article) });
  },
  'articles.gptEdit': async ({ user, body }) => {
    const { editedContent, article } = await articleServices().articles.gptEdit(user.id, body);
    return json(200, { success: true, editedContent, article: toApiArticle(article) });
  },
});
