import type { Article, ChannelFacts } from '@app/shared';
import { request } from '../../api/client';
import { lazy } from 'react';
import type { RegisteredChannel } from '../types';
import { GHOST_ID, ghostStatusQuery, ghostStatusText } from './status';

/**
 * Ghost's facts: it publishes the blog version, as WordPress does, so it is a second channel of that version (its
 * own row on the Schedule card and its own preview, while connected: `also`). Publishing again finds the post the
 * first publish made (functions/src/channels/ghost/channel.ts), so it offers no second Publish Now.
 */
const facts: ChannelFacts = {
  id: GHOST_ID,
  version: 'blog',
  label: 'Ghost',
  versionLabel: 'Blog',
  versionNoun: 'blog',
  textLimit: null,
  republishes: false,
};

const post = (article: Article) => article.posts?.[GHOST_ID];

/** Ghost (docs/integrations.md, Ghost): the blog version as a post of the connected Ghost site. */
export const ghost: RegisteredChannel = {
  // A chunk of its own, fetched when a page first renders it (channels/registry.ts).
  Preview: lazy(() => import('./GhostPreview')),
  ...facts,
  posted: (article) => !!post(article),
  postUrl: (article) => post(article)?.url,
  publishRoute: 'channels.publish',
  publish: async (id) => {
    const answer = await request('channels.publish', { params: { channel: GHOST_ID, id } });
    return { message: answer.message, link: answer.post.url, article: answer.article };
  },
  tag: {
    mark: 'Gh',
    light: { text: '#ffffff', background: '#15171a' },
    dark: { text: '#15171a', background: '#e4e4e7' },
  },
  texts: {
    viewOn: 'View on Ghost',
    publishFailed: 'Failed to publish to Ghost',
    publishConfirm: () =>
      'The blog version goes live on your Ghost site straight away, with its feature image and tags.',
    editorTitle: 'Blog Article',
    commentsTitle: 'Comments on the blog version',
    editor: { textarea: 'Blog content', noun: 'blog article', rows: 18 },
  },
  remedies: { ghost_not_connected: 'Connect Ghost in Settings' },
  statusLine: { ...ghostStatusQuery, select: ghostStatusText },
  also: {
    connected: { ...ghostStatusQuery, select: (answer) => answer.connected },
    postedAt: (article) => post(article)?.publishedAt ?? null,
  },
};
