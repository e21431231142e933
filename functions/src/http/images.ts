import { ImageUploadMessages } from '@app/shared';
import type { ImageSavedAnswer, ImageStartAnswer } from '@app/shared/api';
import type { ArticleRecord } from '../domain/articles.js';
import { articleServices } from '../wiring/articles.js';
import { imageServices } from '../wiring/images.js';
import { toApiImageStatus } from './article-view.js';
import { defineHandlers } from './handlers.js';
import { json, redirect, type Reply } from './response.js';

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

/**
 * To the store's signed URL of the file. The redirect may be kept ten minutes: the URL it names stays
 * valid for at least an hour (domain/images.ts), and a new image has new files, asked for with a new `t`.
 */
const fileRedirect = (url: string) => redirect(url, 'private, max-age=600');

export const handlers = defineHandlers('images', {
  'images.generate': ({ workspace, params, body }) => generate(workspace.id, params.articleId, body.description),
  'images.regenerate': ({ workspace, params, body }) => generate(workspace.id, params.articleId, body.description),
  'images.status': async ({ workspace, params }) =>
    json(200, toApiImageStatus(await articleServices().articles.imageStatus(workspace.id, params.articleId))),
  'images.preview': async ({ workspace, params, query }) =>
    fileRedirect(await imageServices().imageLink(workspace.id, params.articleId, query.platform)),
  'images.uploadStart': async ({ workspace, params, body }) =>
    json(200, { upload: await imageServices().startUpload(workspace.id, params.articleId, body) }),
  'images.uploadComplete': async ({ workspace, params, body }) =>
    saved(
      await imageServices().completeUpload(workspace.id, params.articleId, body.key, body.focalPoint),
      ImageUploadMessages.uploaded,
    ),
  'images.focalPoint': async ({ workspace, params, body }) =>
    saved(
      await imageServices().setFocalPoint(workspace.id, params.articleId, body.focalPoint),
      ImageUploadMessages.cropSaved,
    ),
  'images.original': async ({ workspace, params }) =>
    fileRedirect(await imageServices().imageLink(workspace.id, params.articleId, 'original')),
});
