import type { CreateArticleInput, GptEditInput, Platform } from '@app/shared';
import { toApiArticle } from '../domain/articles.js';
import type { RouteHandler, SignedInRequest } from '../middleware/api.js';
import { articleServices } from '../services/articles.js';
import { json } from './response.js';

type IdParams = { id: string };

async function create({ user, body }: SignedInRequest<Required<CreateArticleInput>>) {
  const article = await articleServices().articles.create(user.id, body);
  return json(201, { success: true, article: toApiArticle(article) });
}

const list =
  (which: 'all' | 'published' | 'unpublished'): RouteHandler =>
  async ({ user }: SignedInRequest) => {
    const articles = await articleServices().articles.list(user.id, which);
    return json(200, { articles: articles.map(toApiArticle) });
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
