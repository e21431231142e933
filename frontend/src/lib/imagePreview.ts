import type { ArticleImage } from '@app/shared';
import { routeUrl } from '../api/client';

function withVersion(url: string, version: string | undefined): string {
  if (!version || /[?&]t=/.test(url)) return url;
  return `${url}${url.includes('?') ? '&' : '?'}t=${encodeURIComponent(version)}`;
}

/**
 * The addresses to try, in turn, for an article's preview (docs/product.md, Create): the image's own url,
 * the same with the /api prefix when it is a relative /uploads/ path, then the preview route.
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
  list.push(routeUrl('images.preview', { params: { articleId }, query: { platform: 'blog', t: version } }));
  return [...new Set(list)];
}
