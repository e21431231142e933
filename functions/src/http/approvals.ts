import { ReviewMessages } from '@app/shared';
import { reviewService } from '../wiring/review.js';
import { reviewAttribute } from '../domain/articles.js';
import { toApiArticle } from './article-view.js';
import { requestedVersion } from './versions.js';
import { defineHandlers } from './handlers.js';
import { json, redirect } from './response.js';

/**
 * The approval links' service, loaded by their first call: the owner's e-mailed links are rare beside the
 * review's calls, and their code (scheduling, its e-mail) need not be parsed at every cold start
 * (docs/testing.md, Performance budgets).
 */
const approvalLinks = async () => (await import('../wiring/approvals.js')).approvalLinks();

/** Public: the signed, expiring token in the e-mailed link is the authorization. */
export const handlers = defineHandlers('approvals', {
  'approvals.preview': async ({ body }) => json(200, await (await approvalLinks()).previewApproval(body.token)),
  'approvals.confirm': async ({ body }) => json(200, await (await approvalLinks()).confirmApproval(body.token)),
  // To the store's signed URL of the file, as the owner's image route; kept by this browser for ten minutes
  // (the address carries the link's token, and a new image is asked for with a new t).
  'approvals.image': async ({ query }) =>
    redirect(await (await approvalLinks()).approvalImageLink(query.token), 'private, max-age=600'),

  // Review (domain/review.ts): the route's role is the floor; who may approve at a stage is the review's rule.
  'approvals.submit': async ({ user, workspace, params, body }) => {
    const article = await reviewService().submit(workspace, user.id, params.id, requestedVersion(body.platform));
    return json(200, {
      success: true,
      message: ReviewMessages.submitted,
      article: toApiArticle(article),
      published: null,
    });
  },
  'approvals.approve': async ({ user, workspace, params, body }) => {
    const version = requestedVersion(body.platform);
    const { article, published } = await reviewService().approve(
      workspace.id,
      user.id,
      workspace.role,
      params.id,
      version,
    );
    const approved = article[reviewAttribute(version)]?.status === 'approved';
    return json(200, {
      success: true,
      message: approved ? ReviewMessages.approved : ReviewMessages.stageApproved,
      article: toApiArticle(article),
      published,
    });
  },
  'approvals.requestChanges': async ({ user, workspace, params, body }) => {
    const { article } = await reviewService().requestChanges(
      workspace.id,
      user.id,
      workspace.role,
      params.id,
      requestedVersion(body.platform),
      body.comment,
    );
    return json(200, {
      success: true,
      message: ReviewMessages.changesRequested,
      article: toApiArticle(article),
      published: null,
    });
  },
  // Public: the e-mailed link (single-purpose, bound to its reviewer) is the authorization; reading never acts.
  'approvals.reviewPreview': async ({ body }) => json(200, await reviewService().previewLink(body.token)),
  'approvals.reviewConfirm': async ({ body }) => json(200, await reviewService().confirmLink(body.token, body.comment)),
  'approvals.reviewImage': async ({ query }) =>
    redirect(await reviewService().linkImage(query.token), 'private, max-age=600'),
});
