import type { CreateArticleInput, GptEditInput, Platform } from '@app/shared';
import { toApiArticle, toApiListArticle } from './article-view.js';
import type { RouteHandler, SignedInRequest } from '../middleware/api.js';
import { articleServices } from '../wiring/articles.js';
import { ListCache } from './list-cache.js';
import { acceptsGzip, gzipBase64, json, jsonGzip, jsonText } from './response.js';

type IdParams = { id: string };

async function create({ user, body }: SignedInRequest<Required<CreateArticleInput>>) {
  const article = await articleServices().articles.create(user.id, body);
  return json(201, { success: true, article: toApiArticle(article) });
}

/** Per process: list answers are reused until one of the owner's articles changes (list-cache.ts). */
const lists = new ListCache();
/** Smaller answers are sent as they are. */
const GZIP_FROM_CHARS = 4096;

/**
 * The lists of the owner's articles (each with previews of its long texts: toApiListArticle),
 * gzipped when the client accepts it, as browsers do. Both forms are built once per list version.
 */
const list =
  (which: 'all' | 'published' | 'unpublished'): RouteHandler =>
  async ({ user, deps, event }: SignedInRequest) => {
    const { articles } = articleServices();
    const owner = `${deps.config.tableName}/${user.id}`;
    // Read with the session's user at the start of this request, so before the list is.
    const version = String(user.articlesVersion ?? 0);
    const text = await lists.get(owner, version, which, async () =>
      JSON.stringify({ articles: (await articles.list(user.id, which)).map(toApiListArticle) }),
    );
    if (text.length < GZIP_FROM_CHARS || !acceptsGzip(event.headers['accept-encoding'])) return jsonText(200, text);
    return jsonGzip(200, await lists.get(owner, version, `${which}.gz`, () => gzipBase64(text)));
  };

async function get({ user, params }: SignedInRequest<unknown, unknown, IdParams>) {
  return json(200, { article: toApiArticle(await articleServices().articles.get(user.id, params.id)) });
}

const updateContent =
  (platform: Platform): RouteHandler =>
  async ({ user, params, body }: SignedInRequest<{ content: string }, unknown, IdParams>) => {
    const article = await articleServices().articles.updateContent(user.id, params.id, platform, body.content);
    return json(200, { success: true, article: toApiArticle(article) });
  };

async function retryGeneration({ user, params }: SignedInRequest<unknown, unknown, IdParams>) {
  const article = await articleServices().articles.retryGeneration(user.id, params.id);
  return json(202, { success: true, article: toApiArticle(article) });
}

async function gptEdit({ user, body }: SignedInRequest<GptEditInput>) {
  const { editedContent, article } = await articleServices().articles.gptEdit(user.id, body);
  return json(200, { success: true, editedContent, article: toApiArticle(article) });
}

export const handlers: Record<string, RouteHandler> = {
  'articles.create': create,
  'articles.list': list('all'),
  'articles.unpublished': list('unpublished'),
  'articles.published': list('published'),
  'articles.get': get,
  'articles.updateBlog': updateContent('blog'),
  'articles.updateLinkedIn': updateContent('linkedin'),
  'articles.retryGeneration': retryGeneration,
  'articles.gptEdit': gptEdit,
};
