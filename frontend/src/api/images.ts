import type { ImageStatus } from '@app/shared';
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
