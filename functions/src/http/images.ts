import type { ImageStartAnswer } from '@app/shared/api';
import { articleServices } from '../wiring/articles.js';
import { toApiImageStatus } from './article-view.js';
import { defineHandlers } from './handlers.js';
import { binary, json, type Reply } from './response.js';

/** Starts generation in the worker and answers at once; the UI polls GET /api/image/{id}. */
async function generate(userId: string, articleId: string, description: string): Promise<Reply<ImageStartAnswer>> {
  const status = await articleServices().articles.requestImage(userId, articleId, description);
  return json(202, { ...toApiImageStatus(status), message: 'Image generation started' });
}

export const handlers = defineHandlers('images', {
  'images.generate': ({ user, params, body }) => generate(user.id, params.articleId, body.description),
  'images.regenerate': ({ user, params, body }) => generate(user.id, params.articleId, body.description),
  'images.status': async ({ user, params }) =>
    json(200, toApiImageStatus(await articleServices().articles.imageStatus(user.id, params.articleId))),
  'images.preview': async ({ user, params, query }) => {
    const image = await articleServices().articles.imageBytes(user.id, params.articleId, query.platform);
    // A URL carrying the current version (t) never changes content; without it, revalidate.
    const cache = query.t === image.generatedAt ? 'private, max-age=31536000, immutable' : 'private, no-cache';
    return binary(200, image.body, image.contentType, {
      'cache-control': cache,
      etag: `"${Date.parse(image.generatedAt)}-${query.platform}"`,
    });
  },
});
