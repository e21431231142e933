import { ImageUploadMessages } from '@app/shared';
import type { ImageSavedAnswer, ImageStartAnswer } from '@app/shared/api';
import type { ArticleRecord } from '../domain/articles.js';
import { articleServices } from '../wiring/articles.js';
import { imageServices } from '../wiring/images.js';
import { toApiImageStatus } from './article-view.js';
import { defineHandlers } from './handlers.js';
import { binary, json, type Reply } from './response.js';

/** Starts generation in the worker and answers at once; the UI polls GET /api/image/{id}. */
async function generate(userId: string, articleId: string, description: string): Promise<Reply<ImageStartAnswer>> {
  const status = await articleServices().articles.requestImage(userId, articleId, description);
  return json(202, { ...toApiImageStatus(status), message: 'Image generation started' });
}

/** The article's image after an upload or a new crop (nothing is pending: the work was done in the request). */
const saved = (article: ArticleRecord, message: string): Reply<ImageSavedAnswer> =>
  json(200, {
    ...toApiImageStatus({ articleId: article.id, image: article.image, pending: false, error: null }),
    message,
  });

/** A URL carrying the current version (t) never changes content; without it, revalidate. */
const cacheControl = (t: string | undefined, version: string) =>
  t === version ? 'private, max-age=31536000, immutable' : 'private, no-cache';

export const handlers = defineHandlers('images', {
  'images.generate': ({ user, params, body }) => generate(user.id, params.articleId, body.description),
  'images.regenerate': ({ user, params, body }) => generate(user.id, params.articleId, body.description),
  'images.status': async ({ user, params }) =>
    json(200, toApiImageStatus(await articleServices().articles.imageStatus(user.id, params.articleId))),
  'images.preview': async ({ user, params, query }) => {
    const image = await articleServices().articles.imageBytes(user.id, params.articleId, query.platform);
    return binary(200, image.body, image.contentType, {
      'cache-control': cacheControl(query.t, image.generatedAt),
      etag: `"${Date.parse(image.generatedAt)}-${query.platform}"`,
    });
  },
  'images.uploadStart': async ({ user, params, body }) =>
    json(200, { upload: await imageServices().startUpload(user.id, params.articleId, body) }),
  'images.uploadComplete': async ({ user, params, body }) =>
    saved(
      await imageServices().completeUpload(user.id, params.articleId, body.key, body.focalPoint),
      ImageUploadMessages.uploaded,
    ),
  'images.focalPoint': async ({ user, params, body }) =>
    saved(
      await imageServices().setFocalPoint(user.id, params.articleId, body.focalPoint),
      ImageUploadMessages.cropSaved,
    ),
  'images.original': async ({ user, params, query }) => {
    const original = await imageServices().originalBytes(user.id, params.articleId);
    return binary(200, original.body, original.contentType, {
      'cache-control': cacheControl(query.t, original.generatedAt),
      etag: `"${Date.parse(original.generatedAt)}-original"`,
    });
  },
});
