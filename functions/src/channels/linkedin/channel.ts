/**
 * LinkedIn as a channel (channels/channel.ts): the LinkedIn version as the member's post, or the page's in company
 * mode. A retry sends an earlier attempt's post again unchanged (LinkedIn answers a duplicate with the post it has).
 * Its post is recorded as it always was: `linkedin.*`, `linkedinPostUrn`.
 */
import { LINKEDIN_MAX_CHARS } from '@app/shared';
import { badRequest, conflict } from '../../domain/errors.js';
import type { LinkedInPublisher, LinkedInSentPost, PublishRun } from '../../domain/integrations.js';
import { PublishMessages } from '../../domain/publish-messages.js';
import type { SettingService } from '../../domain/settings.js';
import type { PublishChannel } from '../channel.js';
import { grantAllowsPages, LI_KEYS } from './keys.js';

export interface LinkedInConnection {
  token: string;
  memberId: string;
  /** The scopes LinkedIn granted (absent for connections made before they were kept). */
  scopes: string | undefined;
}

export function linkedinChannel(deps: {
  settings: Pick<SettingService, 'values'>;
  publisher: LinkedInPublisher;
  now: () => Date;
}): PublishChannel<LinkedInConnection> {
  const alreadyPublished = () => conflict(PublishMessages.linkedinAlreadyPublished, 'already_published');
  return {
    id: 'linkedin',
    label: 'LinkedIn',
    platform: 'linkedin',
    claimKey: 'linkedin',
    ownsSchedule: true,
    emailPreview: async (article, input) =>
      (await import('./email-preview.js')).linkedinEmailPreview(input, article.linkedin.content),
    postOf: (article) =>
      article.linkedin.publishedToLinkedIn ? { url: article.linkedin.linkedinPostUrl ?? null } : undefined,
    checkArticle(article) {
      if (article.linkedin.publishedToLinkedIn && article.linkedin.linkedinPostUrl) throw alreadyPublished();
      const content = article.linkedin.content.trim();
      if (!content) throw badRequest(PublishMessages.noContent('linkedin'), 'no_content');
      if (content.length > LINKEDIN_MAX_CHARS)
        throw badRequest(`LinkedIn posts must be under ${LINKEDIN_MAX_CHARS} characters. Please shorten your text.`);
    },
    async connection(userId) {
      const v = await deps.settings.values(userId, [
        LI_KEYS.accessToken,
        LI_KEYS.tokenExpiry,
        LI_KEYS.memberId,
        LI_KEYS.scopes,
      ]);
      const token = v.get(LI_KEYS.accessToken);
      const memberId = v.get(LI_KEYS.memberId);
      if (!token || !memberId) throw badRequest(PublishMessages.linkedinNotConnected, 'linkedin_not_connected');
      const expiry = v.get(LI_KEYS.tokenExpiry);
      if (expiry && Date.parse(expiry) <= deps.now().getTime())
        throw badRequest(PublishMessages.linkedinExpired, 'linkedin_token_invalid');
      return { token, memberId, scopes: v.get(LI_KEYS.scopes) };
    },
    // LinkedIn gives its access token a lifetime (expires_in), kept at LI_KEYS.tokenExpiry when connecting.
    async connectionExpiry(userId) {
      const v = await deps.settings.values(userId, [LI_KEYS.accessToken, LI_KEYS.tokenExpiry]);
      return v.get(LI_KEYS.accessToken) ? v.get(LI_KEYS.tokenExpiry) : undefined;
    },
    checkClaimed(article) {
      if (article.linkedin.publishedToLinkedIn) throw alreadyPublished();
    },
    async publish({ token, memberId, scopes }, post, pending, run) {
      const { article } = post;
      const sent: PublishRun<LinkedInSentPost> = {
        deadline: run.deadline,
        beforeCreate: (sentPost) => run.beforeCreate({ post: sentPost }),
      };
      let author = `urn:li:person:${memberId}`;
      let result: { urn: string; url: string };
      const earlier = pending?.post;
      if (earlier) {
        // An earlier attempt may have made this very post: it is sent again unchanged, and LinkedIn
        // answers a duplicate with the post it has. (Its text may have been edited since: one post
        // of the earlier text beats two posts.)
        author = earlier.author;
        result = await deps.publisher.resend(token, earlier, sent);
      } else {
        if (article.linkedInMode === 'company') {
          // Known not to include page access: say how to get it, before asking LinkedIn anything.
          // (A connection made before the granted scopes were kept tries, as it always did.)
          if (grantAllowsPages(scopes) === false)
            throw badRequest(PublishMessages.linkedinPageAccessNeeded, 'linkedin_page_access_needed');
          const [organization] = await deps.publisher.administeredOrganizations(token, { deadline: run.deadline });
          if (!organization) throw badRequest(PublishMessages.noOrganization, 'no_organization');
          author = organization.urn;
        }
        result = await deps.publisher.publish(
          {
            accessToken: token,
            author,
            commentary: article.linkedin.content.trim(),
            image: await post.image(),
            // A bundle's post shares the live blog post as an article (its card: title, summary, the image).
            ...(post.blogUrl
              ? { article: { source: post.blogUrl, title: article.title, description: article.topic } }
              : {}),
          },
          sent,
        );
      }
      const { requested } = post;
      return {
        url: result.url,
        fields: (at) => ({
          'linkedin.publishedToLinkedIn': true,
          'linkedin.lastPublished': at,
          'linkedin.linkedinPostUrl': result.url,
          linkedinPostUrn: result.urn,
        }),
        // The owner's webhook also gets the `linkedin.published` payload its receivers know, before the event.
        alsoToWebhook: (at) => [
          {
            event: 'linkedin.published',
            articleId: requested.id,
            title: requested.title,
            content: requested.linkedin.content.trim(),
            author,
            postUrl: result.url,
            imageUrl: requested.image ? post.imageUrl() : null,
            publishedAt: at,
          },
        ],
      };
    },
  };
}
