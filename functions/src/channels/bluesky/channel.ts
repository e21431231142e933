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
import type { SettingService } from '../../domain/settings.js';
import type { ChannelCheck, ChannelSettings, PublishChannel } from '../channel.js';
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

type Settings = Pick<SettingService, 'values' | 'put' | 'remove' | 'updatedAt'>;

/** The article's Bluesky version (empty when it has none). */
export const blueskyText = (article: ArticleRecord): string => article.versions?.bluesky?.content ?? '';

/** The saved account, or undefined while any part is missing. */
async function stored(settings: Settings, userId: string): Promise<BlueskyCredentials | undefined> {
  const v = await settings.values(userId, [BLUESKY_KEYS.handle, BLUESKY_KEYS.appPassword, BLUESKY_KEYS.serviceUrl]);
  const handle = v.get(BLUESKY_KEYS.handle);
  const appPassword = v.get(BLUESKY_KEYS.appPassword);
  if (!handle || !appPassword) return undefined;
  return { handle, appPassword, serviceUrl: v.get(BLUESKY_KEYS.serviceUrl) || DEFAULT_SERVICE_URL };
}

function blueskySettings(settings: Settings, client: BlueskyClient): ChannelSettings {
  const check = async (credentials: BlueskyCredentials): Promise<ChannelCheck> => {
    const answer = await client.testConnection(credentials);
    return answer.ok
      ? { ok: true, message: `Connected to Bluesky as @${answer.handle}` }
      : { ok: false, code: answer.code, message: answer.message };
  };
  return {
    async status(userId) {
      const credentials = await stored(settings, userId);
      return {
        connected: credentials !== undefined,
        fields: {
          handle: credentials?.handle ?? null,
          appPassword: credentials ? maskSecret(credentials.appPassword) : null,
          serviceUrl: credentials?.serviceUrl ?? null,
        },
        updatedAt: await settings.updatedAt(userId, BLUESKY_KEYS.appPassword),
      };
    },
    async connect(userId, input) {
      const credentials = parseBlueskyCredentials(input);
      const result = await check(credentials);
      if (!result.ok) throw badRequest(result.message, result.code);
      await settings.put(userId, BLUESKY_KEYS.handle, credentials.handle, 'Bluesky handle');
      await settings.put(userId, BLUESKY_KEYS.serviceUrl, credentials.serviceUrl, 'Bluesky server');
      await settings.put(userId, BLUESKY_KEYS.appPassword, credentials.appPassword, 'Bluesky app password');
      return result;
    },
    async test(userId, input) {
      const credentials = input ? parseBlueskyCredentials(input) : await stored(settings, userId);
      if (!credentials) throw badRequest(BlueskyChannelMessages.notConnected, 'bluesky_not_connected');
      return check(credentials);
    },
    async disconnect(userId) {
      await settings.remove(userId, BLUESKY_KEYS.appPassword);
      await settings.remove(userId, BLUESKY_KEYS.handle);
      await settings.remove(userId, BLUESKY_KEYS.serviceUrl);
    },
  };
}

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
  // A second post of the same text would be a duplicate (a retry of a lost answer is not refused: it has no post yet).
  const alreadyPublished = () => conflict(BlueskyChannelMessages.alreadyPublished, 'already_published');
  return {
    id: 'bluesky',
    label: 'Bluesky',
    // Its image is the article's image (the blog version's picture); its text is its own (`bluesky.content`).
    platform: 'blog',
    eventPlatform: 'bluesky',
    claimKey: 'bluesky',
    settings: blueskySettings(deps.settings, deps.client),
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
      const credentials = await stored(deps.settings, userId);
      if (!credentials) throw badRequest(BlueskyChannelMessages.notConnected, 'bluesky_not_connected');
      return credentials;
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
          posts: { ...(article.posts ?? {}), bluesky: { id: post.uri, url: post.url, publishedAt: at } },
        }),
      };
    },
  };
}
