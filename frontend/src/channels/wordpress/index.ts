import { CHANNELS, type Article } from '@app/shared';
import { request } from '../../api/client';
import { lazy } from 'react';
import type { RegisteredChannel } from '../types';
import { wordpressStatusQuery, wordpressStatusText } from './status';

/** WordPress (docs/integrations.md): the blog version, published as a post of the connected site. */
export const wordpress: RegisteredChannel = {
  // A chunk of its own, fetched when a page first renders it (channels/registry.ts).
  Preview: lazy(() => import('./WordPressPreview')),
  ...CHANNELS[0],
  posted: (article) => article.blog.publishedToWordPress,
  postUrl: (article: Article) => article.blog.wordpressPostUrl,
  publishRoute: 'wordpress.publish',
  publish: async (id) => {
    const { message, post, article } = await request('wordpress.publish', { params: { id } });
    return { message, link: post.link, article };
  },
  tag: {
    mark: 'WP',
    light: { text: '#ffffff', background: '#21759b' },
    dark: { text: '#ffffff', background: '#21759b' },
  },
  texts: {
    viewOn: 'View on WordPress',
    publishFailed: 'Failed to publish to WordPress',
    publishConfirm: (article) =>
      article.blog.publishedToWordPress
        ? 'The blog version replaces the post already on your WordPress site.'
        : 'The blog version goes live on your WordPress site straight away, with its featured image.',
    editorTitle: 'Blog Article',
    commentsTitle: 'Comments on the blog version',
    editor: { textarea: 'Blog content', noun: 'blog article', rows: 18 },
  },
  remedies: { wordpress_not_connected: 'Connect WordPress in Settings' },
  statusLine: { ...wordpressStatusQuery, select: wordpressStatusText },
};
