/** What the blog channels make of an article: the post's slug and its HTML. */
import type { ArticleRecord } from '../domain/articles.js';

/**
 * A new post's slug: the title's, made unique to the article by the random part of its id, so that a later attempt
 * can find exactly this post (WordPress: GET /wp/v2/posts?slug=…).
 */
export function postSlug(title: string, articleId: string): string {
  const base = slug(title).replace(/^featured-image$/, 'post');
  const tag =
    articleId
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(-10) || 'article';
  return `${base}-${tag}`;
}

export const slug = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'featured-image';

/**
 * The post's title (escaped: WordPress takes it as HTML) and sanitized HTML exactly as the editor's blog preview
 * shows them (wordpressPost, shared/src/markdown.ts), loaded on the first publish rather than at every cold start.
 */
export async function postBody(article: ArticleRecord): Promise<{ title: string; html: string }> {
  const { wordpressPost } = await import('@app/shared/markdown');
  const post = wordpressPost({ title: article.title, blogContent: article.blog.content });
  return { title: post.titleHtml, html: post.html };
}
