/**
 * Bluesky as a channel (channels/channel.ts; docs/integrations.md, Bluesky): the article's Bluesky version
 * (`versions.bluesky.content`, docs/data-model.md) as one post. Its settings are the account's handle, an app password (a
 * secret: answered masked, never logged) and the address of the server hosting the account. A post carries the
 * text's link and hashtag facets, the article's image (shrunk to the blob limit) with its description as alt text,
 * or, when the blog post is live, a link card to it with the image as the card's picture. Its record key comes from
 * the article and the first attempt's time (postRecordKey), noted before the post is made, so a retry finds the post
 * instead of posting twice. The post is recorded as `posts.bluesky` on the article.
 */
import { maskSecret, offlineDraftNoteLines } from '@app/shared';
import type { ArticleRecord } from '../../domain/articles.js';
import { badRequest, conflict } from '../../domain/errors.js';
import type { PublishChannel } from '../channel.js';
import {
  credentialSettings,
  storedCredentials,
  type CredentialSettingsStore,
  type CredentialsOf,
} from '../credential-settings.js';
import { DEFAULT_SERVICE_URL, parseBlueskyCredentials, type BlueskyCredentials } from './credentials.js';
import type { BlueskyClient } from './port.js';
import { postRecordKey, postTextProblem } from './text.js';

export const BLUESKY_KEYS = {
  handle: 'bluesky_handle',
  appPassword: 'bluesky_app_password',
  serviceUrl: 'bluesky_service_url',
} as const;

export const BlueskyChannelMessages = {
  notConnected: 'Connect Bluesky first (your handle and an app password).',
  alreadyPublished: 'This article is already on Bluesky.',
  noContent: 'Write the Bluesky version before publishing it.',
  offlineNote:
    'Remove the offline-draft note before publishing: the Bluesky text still holds the note "Offline draft — …".',
} as const;

type Settings = CredentialSettingsStore;

/** The article's Bluesky version (empty when it has none). */
export const blueskyText = (article: ArticleRecord): string => article.versions?.bluesky?.content ?? '';

/** The account in the owner's settings: the app password (a secret), the handle and the server. */
const credentialsOf = (client: BlueskyClient): CredentialsOf<BlueskyCredentials> => ({
  keys: [BLUESKY_KEYS.appPassword, BLUESKY_KEYS.handle, BLUESKY_KEYS.serviceUrl],
  fromValues(v) {
    const handle = v.get(BLUESKY_KEYS.handle);
    const appPassword = v.get(BLUESKY_KEYS.appPassword);
    if (!handle || !appPassword) return undefined;
    return { handle, appPassword, serviceUrl: v.get(BLUESKY_KEYS.serviceUrl) || DEFAULT_SERVICE_URL };
  },
  toValues: (credentials) => [
    [BLUESKY_KEYS.handle, credentials.handle, 'Bluesky handle'],
    [BLUESKY_KEYS.serviceUrl, credentials.serviceUrl, 'Bluesky server'],
    [BLUESKY_KEYS.appPassword, credentials.appPassword, 'Bluesky app password'],
  ],
  parse: parseBlueskyCredentials,
  fields: (credentials) => ({
    handle: credentials?.handle ?? null,
    appPassword: credentials ? maskSecret(credentials.appPassword) : null,
    serviceUrl: credentials?.serviceUrl ?? null,
  }),
  async check(credentials) {
    const answer = await client.testConnection(credentials);
    return answer.ok
      ? { ok: true, message: `Connected to Bluesky as @${answer.handle}` }
      : { ok: false, code: answer.code, message: answer.message };
  },
  notConnected: { message: BlueskyChannelMessages.notConnected, code: 'bluesky_not_connected' },
});

/** The text rule of the Bluesky version (at most 300 graphemes and 3000 bytes); a sentence, or undefined. */
export function blueskyTextProblem(text: string): string | undefined {
  return postTextProblem(text);
}

/** The live blog post a card links to: WordPress's, else another blog channel's. */
function livePostUrl(article: ArticleRecord): string | undefined {
  const urls = [article.blog.wordpressPostUrl, ...Object.values(article.posts ?? {}).map((post) => post.url)];
  return urls.find((url): url is string => typeof url === 'string' && /^https?:\/\//i.test(url));
}

export function blueskyChannel(deps: {
  settings: Settings;
  client: BlueskyClient;
}): PublishChannel<BlueskyCredentials> {
  const connectionOf = credentialsOf(deps.client);
  // A second post of the same text would be a duplicate (a retry of a lost answer is not refused: it has no post yet).
  const alreadyPublished = () => conflict(BlueskyChannelMessages.alreadyPublished, 'already_published');
  return {
    id: 'bluesky',
    label: 'Bluesky',
    // Its image is the article's image (the blog version's picture); its text, review and note are its own version's
    // (`versions.bluesky.content`, its review `blueskyReview`).
    platform: 'blog',
    version: 'bluesky',
    eventPlatform: 'bluesky',
    claimKey: 'bluesky',
    // Its own version's schedule (`scheduled.bluesky`) is its own: its approval publishes here.
    ownsSchedule: true,
    emailPreview: async (article, input) =>
      (await import('./email-preview.js')).blueskyEmailPreview(input, blueskyText(article)),
    postOf: (article) => article.posts?.bluesky,
    settings: credentialSettings(deps.settings, connectionOf),
    checkArticle(article) {
      if (article.posts?.bluesky) throw alreadyPublished();
      const text = blueskyText(article);
      if (!text.trim()) throw badRequest(BlueskyChannelMessages.noContent, 'no_content');
      if (offlineDraftNoteLines(text).length)
        throw badRequest(BlueskyChannelMessages.offlineNote, 'offline_draft_note');
      const problem = blueskyTextProblem(text);
      if (problem) throw badRequest(problem, 'bluesky_text_too_long');
    },
    checkClaimed(article) {
      if (article.posts?.bluesky) throw alreadyPublished();
    },
    async connection(userId) {
      const saved = await storedCredentials(deps.settings, connectionOf, userId);
      if (!saved) throw badRequest(BlueskyChannelMessages.notConnected, 'bluesky_not_connected');
      return saved;
    },
    async publish(credentials, { article, image: readImage }, pending, run) {
      const since = pending?.at ?? new Date().toISOString();
      const rkey = pending?.recordKey ?? postRecordKey(article.id, 'bluesky', since);
      // The record key is noted first: a retry after a lost answer writes under it and finds the post.
      await run.beforeCreate({ recordKey: rkey });
      const image = await readImage();
      const url = livePostUrl(article);
      const post = await deps.client.publishPost(credentials, {
        text: blueskyText(article),
        rkey,
        createdAt: since,
        ...(image
          ? { image: { ...image, alt: article.image?.description || article.imageDescription || article.title } }
          : {}),
        ...(url ? { link: { url, title: article.title, description: article.topic } } : {}),
      });
      return {
        url: post.url,
        fields: (at) => ({
          'posts.bluesky': { id: post.uri, url: post.url, publishedAt: at },
        }),
      };
    },
  };
}
