import { lazy } from 'react';
import type { Article, ChannelFacts } from '@app/shared';
import { BLUESKY_ID, BLUESKY_MAX_GRAPHEMES, blueskyTextProblem, graphemeLength } from '@app/shared/channels/bluesky';
import { request } from '../../api/client';
import type { RegisteredChannel } from '../types';
import { blueskyStatusQuery, blueskyStatusText } from './status';

/**
 * Bluesky's facts: it publishes a version of its own (`ownVersion`: an editor, a 300-grapheme counter and a preview of
 * its own, its own schedule, approval and review; functions/src/channels/bluesky/channel.ts); its post carries the
 * article's image (the blog version's picture). A second post would be a duplicate: no second Publish Now.
 */
const facts: ChannelFacts = {
  id: BLUESKY_ID,
  version: BLUESKY_ID,
  label: 'Bluesky',
  versionLabel: 'Bluesky',
  versionNoun: 'Bluesky',
  // Counted in graphemes, not code points: `ownVersion` below.
  textLimit: null,
  republishes: false,
};

const post = (article: Article) => article.posts?.[BLUESKY_ID];

/** Bluesky (docs/integrations.md, Bluesky): the article's Bluesky text as a post of the connected account. */
export const bluesky: RegisteredChannel = {
  // A chunk of its own, fetched when a page first renders it (channels/registry.ts).
  Preview: lazy(() => import('./BlueskyPreview')),
  ...facts,
  posted: (article) => !!post(article),
  postUrl: (article) => post(article)?.url,
  publishRoute: 'channels.publish',
  publish: async (id) => {
    const answer = await request('channels.publish', { params: { channel: BLUESKY_ID, id } });
    return { message: answer.message, link: answer.post.url, article: answer.article };
  },
  tag: {
    mark: 'Bs',
    light: { text: '#08407d', background: '#d6ebff' },
    dark: { text: '#0b1a2e', background: '#7cc0ff' },
  },
  texts: {
    viewOn: 'View on Bluesky',
    publishFailed: 'Failed to publish to Bluesky',
    publishConfirm: () =>
      'The Bluesky text goes out as a post of your Bluesky account straight away, with the article’s image and its description as alt text.',
    editorTitle: 'Bluesky Post',
    commentsTitle: 'Comments on the Bluesky post',
    editor: { textarea: 'Bluesky text', noun: 'Bluesky post', rows: 5 },
  },
  remedies: { bluesky_not_connected: 'Connect Bluesky in Settings' },
  statusLine: { ...blueskyStatusQuery, select: blueskyStatusText },
  ownVersion: {
    connected: { ...blueskyStatusQuery, select: (answer) => answer.connected },
    postedAt: (article) => post(article)?.publishedAt ?? null,
    max: BLUESKY_MAX_GRAPHEMES,
    count: graphemeLength,
    limitMessage: (text) => blueskyTextProblem(text) ?? '',
  },
};
