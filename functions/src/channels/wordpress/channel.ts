/**
 * WordPress as a channel (channels/channel.ts): the blog version, as a post whose slug is unique to the article, so
 * a later attempt finds the post an earlier one may have made (GET /wp/v2/posts?slug=…) and updates it. Its post is
 * recorded as it always was: `blog.publishedToWordPress`, `blog.wordpressPostUrl`, `wordpressPostId`.
 */
import { httpUrlOrNull } from '@app/shared';
import { badRequest } from '../../domain/errors.js';
import type { WordPressPublisher } from '../../domain/integrations.js';
import { PublishMessages } from '../../domain/publish-messages.js';
import type { PublishChannel } from '../channel.js';
import { postBody, postSlug, slug } from '../post.js';
import type { StoredWordPress, WordPressService } from './service.js';

export function wordpressChannel(deps: {
  wordpress: Pick<WordPressService, 'stored'>;
  publisher: WordPressPublisher;
}): PublishChannel<StoredWordPress> {
  return {
    id: 'wordpress',
    label: 'WordPress',
    platform: 'blog',
    claimKey: 'blog',
    ownsSchedule: true,
    emailPreview: async (article, input) =>
      (await import('./email-preview.js')).wordpressEmailPreview(input, article.blog.content),
    postOf: (article) =>
      article.blog.publishedToWordPress ? { url: article.blog.wordpressPostUrl ?? null } : undefined,
    checkArticle(article) {
      if (!article.blog.content.trim()) throw badRequest(PublishMessages.noContent('blog'), 'no_content');
    },
    async connection(userId) {
      const site = await deps.wordpress.stored(userId);
      if (!site) throw badRequest(PublishMessages.wordpressNotConnected, 'wordpress_not_connected');
      return site;
    },
    async publish(site, { article, image: readImage }, pending, run) {
      const image = await readImage();
      const ext = image?.contentType === 'image/png' ? 'png' : 'jpg';
      // An earlier attempt may have created the post with its slug: it is looked for first.
      const earlier = pending?.slug;
      const { title, html } = await postBody(article);
      const result = await deps.publisher.publish(
        site,
        {
          title,
          html,
          featuredImage: image ? { ...image, filename: `${slug(article.title)}.${ext}` } : undefined,
          existingPostId: article.wordpressPostId ?? undefined,
          slug: earlier ?? postSlug(article.title, article.id),
          findBySlug: earlier !== undefined,
        },
        { deadline: run.deadline, beforeCreate: ({ slug }) => run.beforeCreate({ slug }) },
      );
      // Only an http(s) address is kept and handed on: it becomes a "View post" href.
      const link = httpUrlOrNull(result.link);
      return {
        url: link,
        fields: (at) => ({
          'blog.publishedToWordPress': true,
          'blog.lastPublished': at,
          'blog.wordpressPostUrl': link,
          wordpressPostId: result.postId,
        }),
      };
    },
  };
}
