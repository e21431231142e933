import type { ArticleImage, ImageStatus } from '@app/shared';
import { api, type RequestOptions } from './client';

const id = (articleId: string) => encodeURIComponent(articleId);

export interface ImageStartAnswer extends ImageStatus {
  message?: string;
}

/** Images (docs/product.md, Images): generation runs in the background; poll `status` until `pending` is false. */
export const imagesApi = {
  generate: (articleId: string, description: string) =>
    api.post<ImageStartAnswer>(`/image/generate/${id(articleId)}`, { description }),
  regenerate: (articleId: string, description: string) =>
    api.post<ImageStartAnswer>(`/image/regenerate/${id(articleId)}`, { description }),
  status: (articleId: string, options?: RequestOptions) => api.get<ImageStatus>(`/image/${id(articleId)}`, options),
};

function withVersion(url: string, version: string | undefined): string {
  if (!version || /[?&]t=/.test(url)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}t=${encodeURIComponent(version)}`;
}

/**
 * The addresses to try, in turn, for an article's preview (docs/product.md, Create): the image's own url,
 * the same with the /api prefix when it is a relative /uploads/ path, then the preview endpoint.
 * Each carries the cache-buster `t` derived from generatedAt; duplicates are dropped.
 */
export function imagePreviewCandidates(
  articleId: string,
  image: Pick<ArticleImage, 'url' | 'generatedAt'> | null | undefined,
): string[] {
  if (!image) return [];
  const version = image.generatedAt || undefined;
  const list: string[] = [];
  const url = image.url?.trim();
  if (url) {
    list.push(withVersion(url, version));
    if (url.startsWith('/uploads/')) list.push(withVersion(`/api${url}`, version));
  }
  list.push(withVersion(`/api/image/preview/${id(articleId)}?platform=blog`, version));
  return [...new Set(list)];
}
