import { CHANNELS, type Article } from '@app/shared';
import { request } from '../../api/client';
import { lazy } from 'react';
import type { RegisteredChannel } from '../types';
import { PostingModeRow } from './PostingModeChoice';
import { linkedInStatusQuery, linkedInStatusText } from './status';

/** LinkedIn (docs/integrations.md): the LinkedIn version, posted as the member or as a page they administer. */
export const linkedin: RegisteredChannel = {
  // A chunk of its own, fetched when a page first renders it (channels/registry.ts).
  Preview: lazy(() => import('./LinkedInPreview')),
  ...CHANNELS[1],
  posted: (article) => article.linkedin.publishedToLinkedIn,
  postUrl: (article: Article) => article.linkedin.linkedinPostUrl,
  publishRoute: 'linkedin.publish',
  publish: async (id) => {
    const { message, post, article } = await request('linkedin.publish', { params: { id } });
    return { message, link: post.url, article };
  },
  tag: {
    mark: 'in',
    light: { text: '#ffffff', background: '#0a66c2' },
    dark: { text: '#ffffff', background: '#0a66c2' },
  },
  texts: {
    viewOn: 'View on LinkedIn',
    publishFailed: 'Failed to publish to LinkedIn',
    publishConfirm: (article) =>
      `The LinkedIn version is posted straight away as your ${
        article.linkedInMode === 'company' ? 'Business Page' : 'Personal Profile'
      }.`,
    editorTitle: 'LinkedIn Post',
    commentsTitle: 'Comments on the LinkedIn post',
    editor: { textarea: 'LinkedIn content', noun: 'LinkedIn post', rows: 12 },
  },
  remedies: {
    linkedin_token_invalid: 'Reconnect LinkedIn in Settings',
    linkedin_not_connected: 'Connect LinkedIn in Settings',
  },
  statusLine: { ...linkedInStatusQuery, select: linkedInStatusText },
  CardExtra: PostingModeRow,
};
