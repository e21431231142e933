/**
 * Ghost as a channel (channels/channel.ts; docs/integrations.md, Ghost): the blog version as a Ghost post, beside or
 * instead of WordPress. Its settings are the site's address and the Admin API key of a custom integration, both kept
 * as secrets (the key is never answered unmasked nor logged: GhostAdminKey). A post is made from the same HTML as
 * the WordPress one (shared/src/markdown.ts), the feature image uploaded first, the keyword and tags as its tags,
 * with a slug unique to the article, so a retry finds the post an earlier attempt made instead of posting twice.
 * The post is recorded as `posts.ghost` on the article.
 */
import { badRequest, DomainError } from '../../domain/errors.js';
import type { PublishChannel } from '../channel.js';
import {
  credentialSettings,
  storedCredentials,
  type CredentialSettingsStore,
  type CredentialsOf,
} from '../credential-settings.js';
import { PublishMessages } from '../../domain/publish-messages.js';
import { postBody, postSlug, slug } from '../post.js';
import type { GhostChannelClient } from './client.js';
import { GhostAdminKey, parseGhostCredentials, type GhostCredentials } from './credentials.js';

export const GHOST_KEYS = {
  siteUrl: 'ghost_site_url',
  adminApiKey: 'ghost_admin_api_key',
} as const;

export const GhostChannelMessages = {
  notConnected: 'Connect Ghost first (its site address and Admin API key).',
  saved: 'Ghost connected.',
} as const;

type Settings = CredentialSettingsStore;

/** Ghost's credentials in the owner's settings: the key (a secret) and the site it belongs to. */
const credentialsOf = (client: GhostChannelClient): CredentialsOf<GhostCredentials> => ({
  keys: [GHOST_KEYS.adminApiKey, GHOST_KEYS.siteUrl],
  fromValues(v) {
    const siteUrl = v.get(GHOST_KEYS.siteUrl);
    const key = v.get(GHOST_KEYS.adminApiKey);
    return siteUrl && key ? { siteUrl, adminKey: new GhostAdminKey(key) } : undefined;
  },
  toValues: (credentials) => [
    [GHOST_KEYS.siteUrl, credentials.siteUrl, 'Ghost site'],
    [
      GHOST_KEYS.adminApiKey,
      `${credentials.adminKey.id}:${Buffer.from(credentials.adminKey.signingKey()).toString('hex')}`,
      'Ghost Admin API key',
    ],
  ],
  parse: parseGhostCredentials,
  fields: (credentials) => ({
    siteUrl: credentials?.siteUrl ?? null,
    adminApiKey: credentials ? credentials.adminKey.masked() : null,
  }),
  async check(credentials) {
    try {
      const site = await client.testConnection(credentials);
      return { ok: true, message: `Connected to ${site.title || site.url} (Ghost ${site.version})` };
    } catch (err) {
      if (err instanceof DomainError) return { ok: false, code: err.code ?? 'ghost_refused', message: err.message };
      throw err;
    }
  },
  notConnected: { message: GhostChannelMessages.notConnected, code: 'ghost_not_connected' },
});

export function ghostChannel(deps: {
  settings: Settings;
  client: GhostChannelClient;
}): PublishChannel<GhostCredentials> {
  const connectionOf = credentialsOf(deps.client);
  return {
    id: 'ghost',
    label: 'Ghost',
    platform: 'blog',
    eventPlatform: 'ghost',
    claimKey: 'ghost',
    joinsSchedule: true,
    postOf: (article) => article.posts?.ghost,
    emailPreview: async (article, input) =>
      (await import('./email-preview.js')).ghostEmailPreview(input, article.blog.content),
    settings: credentialSettings(deps.settings, connectionOf),
    checkArticle(article) {
      if (!article.blog.content.trim()) throw badRequest(PublishMessages.noContent('blog'), 'no_content');
    },
    async connection(userId) {
      const saved = await storedCredentials(deps.settings, connectionOf, userId);
      if (!saved) throw badRequest(GhostChannelMessages.notConnected, 'ghost_not_connected');
      return saved;
    },
    async publish(credentials, { article, image: readImage }, pending, run) {
      const postSlugOf = pending?.slug ?? postSlug(article.title, article.id);
      // The slug is noted first: a retry after a lost answer finds the post by it (publishPost looks first).
      await run.beforeCreate({ slug: postSlugOf });
      const image = await readImage();
      const ext = image?.contentType === 'image/png' ? 'png' : 'jpg';
      const existing = await deps.client.findPost(credentials, postSlugOf);
      const featureImage =
        image && !existing
          ? (
              await deps.client.uploadImage(credentials, {
                ...image,
                filename: `${slug(article.title)}.${ext}`,
              })
            ).url
          : undefined;
      const { html } = await postBody(article);
      const post =
        existing ??
        (await deps.client.publishPost(credentials, {
          title: article.title,
          html,
          slug: postSlugOf,
          featureImage,
          keyword: article.keyword,
          tags: article.tags,
        }));
      const url = /^https?:\/\//i.test(post.url) ? post.url : null;
      return {
        url,
        fields: (at) => ({
          // Its own entry only: another channel's publish may be writing its own at the same time.
          'posts.ghost': { id: post.id, url, publishedAt: at },
        }),
      };
    },
  };
}
