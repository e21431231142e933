import type { Platform } from '@app/shared';
import type { RouteHandler, SignedInRequest } from '../middleware/api.js';
import { articleServices } from '../wiring/articles.js';
import { toApiImageStatus } from './article-view.js';
import { binary, json } from './response.js';

type Params = { articleId: string };

/** Starts generation in the worker and answers at once; the UI polls GET /api/image/{id}. */
async function generate({ user, params, body }: SignedInRequest<{ description: string }, unknown, Params>) {
  const status = await articleServices().articles.requestImage(user.id, params.articleId, body.description);
  return json(202, { ...toApiImageStatus(status), message: 'Image generation started' });
}

async function status({ user, params }: SignedInRequest<unknown, unknown, Params>) {
  return json(200, toApiImageStatus(await articleServices().articles.imageStatus(user.id, params.articleId)));
}

async function preview({ user, params, query }: SignedInRequest<unknown, { platform: Platform; t?: string }, Params>) {
  const image = await articleServices().articles.imageBytes(user.id, params.articleId, query.platform);
  // A URL carrying the current version (t) never changes content; without it, revalidate.
  const cache = query.t === image.generatedAt ? 'private, max-age=31536000, immutable' : 'private, no-cache';
  return binary(200, image.body, image.contentType, { 'cache-control': cache, etag: `"${Date.parse(image.generatedAt)}-${query.platform}"` });
}

export const handlers: Record<string, RouteHandler> = {
  'images.generate': generate,
  'images.regenerate': generate,
  'images.status': status,
  'images.preview': preview,
};
