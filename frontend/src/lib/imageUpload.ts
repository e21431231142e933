/**
 * Your own image (docs/product.md, Create): the browser checks the file, asks the API for a signed
 * form, posts the file straight to the store (S3 in AWS, the local store under `npm start`) with upload
 * progress, then asks the API to take it (it checks the file again, strips its metadata and crops it).
 */
import { ImageUploadMessages, imageFileProblem, type FocalPoint, type ImageUploadType } from '@app/shared';
import type { ImageSavedAnswer } from '@app/shared/api';
import { request } from '../api/client';

/** A step of the upload, for the progress shown: sending (with the share sent, 0..1), then checking. */
export type UploadProgress = { stage: 'sending'; fraction: number } | { stage: 'checking' };

export class UploadError extends Error {}

/**
 * Posts `file` to the signed form as a browser form would (fields first, the file last). XMLHttpRequest,
 * not fetch: only it reports how much of the body has been sent.
 */
export function postToStore(
  upload: { url: string; fields: Record<string, string> },
  file: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', upload.url);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () =>
      xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new UploadError(ImageUploadMessages.uploadFailed)),
    );
    xhr.addEventListener('error', () => reject(new UploadError(ImageUploadMessages.uploadFailed)));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/**
 * Uploads `file` as the article's image, cut around `focalPoint` (default: the centre). A file of another
 * type or over the limit is refused here with the server's own text, before anything is sent.
 */
export async function uploadImage(
  articleId: string,
  file: File,
  options: { onProgress?: (progress: UploadProgress) => void; focalPoint?: FocalPoint; signal?: AbortSignal } = {},
): Promise<ImageSavedAnswer> {
  const problem = imageFileProblem(file);
  if (problem) throw new UploadError(problem);
  const { upload } = await request(
    'images.uploadStart',
    { params: { articleId }, body: { contentType: file.type as ImageUploadType, size: file.size } },
    { signal: options.signal },
  );
  options.onProgress?.({ stage: 'sending', fraction: 0 });
  await postToStore(upload, file, (fraction) => options.onProgress?.({ stage: 'sending', fraction }), options.signal);
  options.onProgress?.({ stage: 'checking' });
  return request(
    'images.uploadComplete',
    {
      params: { articleId },
      body: { key: upload.key, ...(options.focalPoint ? { focalPoint: options.focalPoint } : {}) },
    },
    { signal: options.signal },
  );
}
