import { SignJWT, jwtVerify } from 'jose';
import {
  CommentMessages,
  CommentTextSchema,
  DEFAULT_REVIEW_SETTINGS,
  ImageUploadMessages,
  REVIEW_LINK_DAYS,
  ROLE_NAMES,
  ReviewMessages,
  approvalTimeText,
  approvalTimeZone,
  slotApproval,
  stageRoles,
  stagesOf,
  isPublished,
  VERSION_ID,
  type VersionId,
  type ReviewSettings,
  type VersionReview,
  type WorkspaceRole,
} from '@app/shared';
import type { ReviewLinkDone, ReviewLinkPreview } from '@app/shared/api';
import type { approvalEmailContent, changesRequestedEmailContent } from './approval-email.js';
import { reviewAttribute, scheduledOf, versionText, type ArticleRecord } from './articles.js';
import { eventPlatform, makeEvent, outboxEntry, type OutboxEntry } from './automation-events.js';
import { addComment, type CommentStore } from './comments.js';
import { badRequest, conflict, forbidden, notFound } from './errors.js';
import type { MailSender } from './integrations.js';
import { IMAGE_CID, imageFileLink, inlineImage, newestImageFile } from './images.js';
import { imageVersion, versionName } from './version-names.js';
import type { ArticleStore, ObjectStore, ScheduledRun, UploadSigner } from './ports.js';
import { restarted, reviewRequested, type RequiredReview } from './review-edit.js';
import type { CurrentWorkspace, MemberRecord, WorkspaceStore } from './workspaces.js';

/**
 * Review by someone other than the author (docs/product.md, Workspaces, Review). A team workspace's setting says
 * what publishing a version needs; each version's review is kept on the article (`blogReview`, `linkedinReview`,
 * docs/data-model.md) and every change to it is written with its domain event (the outbox). A personal
 * workspace, and a team workspace set to `author`, keep the approval e-mail of the scheduled run as it was.
 */

/** A reviewer's person as the e-mails and the link checks need it. */
export interface ReviewPerson {
  id: string;
  email: string;
  name: string;
  timezone: string;
  sessionVersion?: number;
}

export interface ReviewDeps {
  articles: ArticleStore;
  workspaces: Pick<WorkspaceStore, 'get' | 'members' | 'access' | 'setReview'>;
  /** An active account (undefined when gone or deactivated: they get no e-mail and their links do nothing). */
  activeUser: (userId: string) => Promise<ReviewPerson | undefined>;
  /** The workspace's mailer (its Gmail, else the local outbox); undefined: nothing can be sent. */
  mailer?: (workspaceId: string) => Promise<MailSender | undefined>;
  /**
   * The approval e-mail's rendering (domain/approval-email.ts), given by the functions that send mail: the others'
   * bundles then carry neither it nor the Markdown pipeline it loads.
   */
  render?: typeof approvalEmailContent;
  /** The e-mail telling the authors that changes were requested (domain/approval-email.ts), given likewise. */
  renderChanges?: (
    ...input: Parameters<typeof changesRequestedEmailContent>
  ) => ReturnType<typeof changesRequestedEmailContent> | Promise<ReturnType<typeof changesRequestedEmailContent>>;
  /** The stored images: the reviewers' e-mail shows the version's picture inline, as the owner's does. */
  objects?: Pick<ObjectStore, 'get'>;
  /** Signs the store's reads: the review page shows the version's picture by the link's token (no session). */
  signer?: Pick<UploadSigner, 'signDownload'>;
  /** The versions' comment threads: a "Request changes" comment is posted there (domain/comments.ts). */
  comments?: CommentStore;
  /** Publishes an approved version whose slot has come (the approval within the grace period). */
  publish?: (
    workspaceId: string,
    articleId: string,
    platform: VersionId,
    scheduledFor: string,
  ) => Promise<string | null>;
  signingKey: () => Promise<Uint8Array>;
  publicUrl: () => string;
  now?: () => Date;
}

type Mode = VersionReview['mode'];
type Action = 'approve' | 'changes';
interface ReviewLink {
  workspaceId: string;
  articleId: string;
  platform: VersionId;
  reviewerId: string;
  action: Action;
  rev: number;
  sessionVersion: number;
}

const LINK_TTL_S = REVIEW_LINK_DAYS * 24 * 3600;

/** Single-purpose review links: one action, one reviewer, one state of the version (`rev`), expiring. */
const reviewTokens = {
  async sign(link: ReviewLink, key: Uint8Array, now: Date): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({
      purpose: 'review',
      act: link.action,
      ws: link.workspaceId,
      aid: link.articleId,
      p: link.platform,
      rev: link.rev,
      sv: link.sessionVersion,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(link.reviewerId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + LINK_TTL_S)
      .sign(key);
  },
  async verify(token: string, key: Uint8Array): Promise<ReviewLink> {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      if (payload.purpose !== 'review' || typeof payload.sub !== 'string') throw new Error('purpose');
      if (payload.act !== 'approve' && payload.act !== 'changes') throw new Error('action');
      // The blog, LinkedIn or a channel's own version: a name that is none finds no review (invalid link).
      if (typeof payload.p !== 'string' || !VERSION_ID.test(payload.p)) throw new Error('platform');
      return {
        workspaceId: String(payload.ws),
        articleId: String(payload.aid),
        platform: payload.p,
        reviewerId: payload.sub,
        action: payload.act,
        rev: Number(payload.rev),
        sessionVersion: Number(payload.sv),
      };
    } catch {
      throw badRequest(ReviewMessages.linkInvalid, 'invalid_review_link');
    }
  },
};

/**
 * What the version's review keeps of a "Request changes": who and when, and the comment, which is also posted to
 * the version's comment thread (requestChanges).
 */
export function changeRequestOf(by: string, comment: string, at: Date): NonNullable<VersionReview['changes']> {
  return { by, at: at.toISOString(), comment };
}

export class ReviewService {
  constructor(private readonly deps: ReviewDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * A workspace's review setting read from its record, for a scheduled run (a request has it on its workspace,
   * CurrentWorkspace.review): a personal workspace (no record) always `author`.
   */
  async settingsOf(workspaceId: string): Promise<ReviewSettings & { personal: boolean }> {
    const record = await this.deps.workspaces.get(workspaceId);
    if (!record) return { ...DEFAULT_REVIEW_SETTINGS, personal: true };
    return { ...DEFAULT_REVIEW_SETTINGS, ...record.review, personal: false };
  }

  async setSettings(workspace: CurrentWorkspace, settings: ReviewSettings): Promise<ReviewSettings> {
    if (workspace.personal) throw badRequest(ReviewMessages.personal, 'personal_workspace');
    await this.deps.workspaces.setReview(workspace.id, settings);
    return settings;
  }

  /**
   * Publish Now where review is required: only an approved version (409 saying what to do otherwise). The check of the
   * article as the publish reads it (PublishOrigin's `check`, domain/publishing.ts): no read of its own.
   */
  publishNowCheck(workspace: CurrentWorkspace, platform: VersionId): ((article: ArticleRecord) => void) | undefined {
    if (workspace.personal || workspace.review.mode === 'author') return undefined;
    return (article) => {
      if (article[reviewAttribute(platform)]?.status !== 'approved')
        throw conflict(ReviewMessages.needsApproval, 'approval_required');
    };
  }

  /** The settings where review is required, or a 400 saying it is not. */
  private required(workspace: CurrentWorkspace): RequiredReview {
    const { mode, graceHours } = workspace.review;
    if (workspace.personal) throw badRequest(ReviewMessages.personal, 'review_not_required');
    if (mode === 'author') throw badRequest(ReviewMessages.notRequired, 'review_not_required');
    return { mode, graceHours };
  }

  private async article(workspaceId: string, articleId: string): Promise<ArticleRecord> {
    const article = await this.deps.articles.get(workspaceId, articleId);
    if (!article) throw notFound('Article not found', 'article_not_found');
    return article;
  }

  private async write(
    workspaceId: string,
    article: ArticleRecord,
    platform: VersionId,
    review: VersionReview,
    events: OutboxEntry[],
  ): Promise<ArticleRecord> {
    const before = article[reviewAttribute(platform)]?.rev ?? 0;
    const updated = await this.deps.articles.update(
      workspaceId,
      article.id,
      { [reviewAttribute(platform)]: review },
      { onlyIfReviewRev: { platform, rev: before }, events },
    );
    // Someone else changed the review meanwhile: theirs stands, this call is told to look again.
    if (!updated) throw conflict('The review changed meanwhile: reload and try again.', 'review_changed');
    return updated;
  }

  /** A writer or editor submits a version for review: its reviewers are e-mailed. */
  async submit(workspace: CurrentWorkspace, userId: string, articleId: string, platform: VersionId) {
    const article = await this.article(workspace.id, articleId);
    const settings = this.required(workspace);
    if (!versionText(article, platform).trim()) throw badRequest(ReviewMessages.emptyVersion, 'empty_version');
    const before = article[reviewAttribute(platform)];
    if (before?.status === 'approved') throw conflict(ReviewMessages.alreadyApproved, 'already_approved');
    const review = restarted(before, settings, [userId], this.now());
    const updated = await this.write(workspace.id, article, platform, review, [
      reviewRequested(workspace.id, article, platform, userId, 1, 'submitted', this.now()),
    ]);
    await this.mailReviewers(workspace.id, articleId, platform, review.rev);
    return updated;
  }

  /** Who may approve the version at its stage: the roles of the stage, never an author, active accounts only. */
  private async reviewers(workspaceId: string, review: VersionReview): Promise<MemberRecord[]> {
    const roles = stageRoles(review.mode, review.stage);
    return (await this.deps.workspaces.members(workspaceId))
      .filter((m) => roles.includes(m.role) && !review.authors.includes(m.userId))
      .sort((a, b) => a.joinedAt.localeCompare(b.joinedAt));
  }

  /**
   * E-mails each reviewer of the version's current stage the rendered post with their own Approve and Request
   * changes links. Nothing when the review moved on since `rev` (a later change sends its own).
   */
  async mailReviewers(workspaceId: string, articleId: string, version: VersionId, rev: number): Promise<number> {
    const platform = version;
    const article = await this.deps.articles.get(workspaceId, articleId);
    const review = article?.[reviewAttribute(platform)];
    if (!article || !review || review.rev !== rev || review.status !== 'pending') return 0;
    const mailer = await this.deps.mailer?.(workspaceId);
    const render = this.deps.render;
    if (!mailer || !render) return 0;
    const workspace = await this.deps.workspaces.get(workspaceId);
    const key = await this.deps.signingKey();
    const base = this.deps.publicUrl();
    // The newest image's file, as the owner's approval e-mail (domain/scheduling.ts); a failed read sends it without.
    const found = this.deps.objects
      ? await newestImageFile({ articles: this.deps.articles, objects: this.deps.objects }, article, platform).catch(
          () => undefined,
        )
      : undefined;
    const shownImage = found?.image ?? article.image;
    let sent = 0;
    for (const member of await this.reviewers(workspaceId, review)) {
      const person = await this.deps.activeUser(member.userId);
      if (!person) continue;
      const link = (action: Action) =>
        reviewTokens.sign(
          {
            workspaceId,
            articleId,
            platform,
            reviewerId: person.id,
            action,
            rev,
            sessionVersion: person.sessionVersion ?? 0,
          },
          key,
          this.now(),
        );
      const url = async (action: Action) => `${base}/review?token=${encodeURIComponent(await link(action))}`;
      const slot = scheduledOf(article, platform);
      const content = await render({
        platform,
        title: article.title,
        content: versionText(article, platform),
        when: slot ? approvalTimeText(new Date(slot), person.timezone) : '',
        problem: '',
        image: shownImage ? { description: shownImage.description, cid: found ? IMAGE_CID : null } : null,
        linkedIn: { identity: undefined, mode: article.linkedInMode },
        approveUrl: await url('approve'),
        scheduleUrl: `${base}/schedule`,
        linkDays: REVIEW_LINK_DAYS,
        review: {
          changesUrl: await url('changes'),
          workspaceName: workspace?.name ?? 'your workspace',
          stage: stageText(review.mode, review.stage, member.role),
        },
      });
      await mailer.send({ to: person.email, ...content, ...(found ? { inline: [inlineImage(found.file)] } : {}) });
      sent++;
    }
    return sent;
  }

  /** Checks that `userId` (role `role`) may decide the version's review now; answers the pending review. */
  private decidable(article: ArticleRecord, platform: VersionId, userId: string, role: WorkspaceRole): VersionReview {
    const review = article[reviewAttribute(platform)];
    if (!review || review.status === 'changes') throw conflict(ReviewMessages.nothingToReview, 'not_in_review');
    if (review.status === 'approved') throw conflict(ReviewMessages.alreadyApproved, 'already_approved');
    if (review.authors.includes(userId)) throw forbidden(ReviewMessages.ownApproval, 'own_approval');
    if (!stageRoles(review.mode, review.stage).includes(role))
      throw forbidden(
        ReviewMessages.roleCannotApprove(ROLE_NAMES[role], review.stage, review.mode),
        'role_cannot_approve',
      );
    return review;
  }

  /**
   * Approves the version's current stage. The last stage approves it: if its slot has come and the grace period
   * is not over, it is published now (the run at the slot found it waiting).
   */
  async approve(workspaceId: string, userId: string, role: WorkspaceRole, articleId: string, platform: VersionId) {
    const article = await this.article(workspaceId, articleId);
    const review = this.decidable(article, platform, userId, role);
    const now = this.now();
    const final = review.stage >= stagesOf(review.mode);
    const next: VersionReview = {
      ...review,
      status: final ? 'approved' : 'pending',
      stage: final ? review.stage : 2,
      approvals: [...review.approvals, { by: userId, at: now.toISOString(), stage: review.stage }],
      rev: review.rev + 1,
    };
    const approved = outboxEntry(
      makeEvent(
        'ArticleApproved',
        {
          userId: workspaceId,
          articleId,
          title: article.title,
          platform: eventPlatform(platform),
          scheduledFor: scheduledOf(article, platform),
          postUrl: null,
          actorId: userId,
          approverId: userId,
          stage: review.stage,
          final,
        },
        now,
      ),
    );
    const events = final
      ? [approved]
      : [approved, reviewRequested(workspaceId, article, platform, userId, 2, 'stage', now)];
    let updated = await this.write(workspaceId, article, platform, next, events);
    if (!final) {
      await this.mailReviewers(workspaceId, articleId, platform, next.rev);
      return { article: updated, published: null };
    }
    const slot = scheduledOf(updated, platform);
    const published = slot && Date.parse(slot) <= now.getTime() ? await this.publishDue(updated, platform) : null;
    if (published) updated = (await this.deps.articles.get(workspaceId, articleId)) ?? updated;
    return { article: updated, published };
  }

  /** Publishes an approved version whose slot has passed, within the grace period (else nothing: it expired). */
  private async publishDue(article: ArticleRecord, platform: VersionId) {
    const slot = scheduledOf(article, platform);
    if (!slot || !this.deps.publish) return null;
    const review = article[reviewAttribute(platform)];
    if (!review || Date.parse(slot) + review.graceHours * 3600_000 <= this.now().getTime()) return null;
    const postUrl = await this.deps.publish(article.userId, article.id, platform, slot);
    return { platform, postUrl };
  }

  /** Sends the version back to its authors with what should change (the comment is required by the schema). */
  async requestChanges(
    workspaceId: string,
    userId: string,
    role: WorkspaceRole,
    articleId: string,
    platform: VersionId,
    comment: string,
  ) {
    // The thread's limits, checked before anything is written: the comment is posted there too.
    const text = CommentTextSchema().safeParse(comment);
    if (!text.success) throw badRequest(text.error.issues[0]?.message ?? CommentMessages.empty, 'invalid_comment');
    const article = await this.article(workspaceId, articleId);
    const review = this.decidable(article, platform, userId, role);
    const now = this.now();
    const next: VersionReview = {
      ...review,
      status: 'changes',
      changes: changeRequestOf(userId, comment, now),
      rev: review.rev + 1,
    };
    const event = makeEvent(
      'ChangesRequested',
      {
        userId: workspaceId,
        articleId,
        title: article.title,
        platform: eventPlatform(platform),
        actorId: userId,
        stage: review.stage,
        comment,
      },
      now,
    );
    const updated = await this.write(workspaceId, article, platform, next, [outboxEntry(event)]);
    const reviewer = await this.deps.activeUser(userId);
    const reviewerName = reviewer?.name || 'A reviewer';
    // Beside the text, in the version's thread, where the authors read and answer comments.
    if (this.deps.comments)
      await addComment(
        { articles: this.deps.articles, comments: this.deps.comments, now: () => now },
        {
          userId: workspaceId,
          articleId,
          platform,
          author: { id: userId, name: reviewerName },
          text: comment,
          changeRequest: true,
        },
      );
    await this.mailChangesRequested(workspaceId, updated, platform, next.authors, reviewerName, comment);
    return { article: updated, published: null };
  }

  /** Tells the version's authors (active accounts) who asked for what, with a link to the article's editor. */
  private async mailChangesRequested(
    workspaceId: string,
    article: ArticleRecord,
    platform: VersionId,
    authors: string[],
    reviewerName: string,
    comment: string,
  ): Promise<void> {
    const render = this.deps.renderChanges;
    const mailer = render && (await this.deps.mailer?.(workspaceId));
    if (!render || !mailer) return;
    const workspace = await this.deps.workspaces.get(workspaceId);
    const content = await render({
      platform,
      title: article.title,
      workspaceName: workspace?.name ?? 'your workspace',
      reviewerName,
      comment,
      editorUrl: `${this.deps.publicUrl()}/create?articleId=${encodeURIComponent(article.id)}`,
    });
    for (const authorId of authors) {
      const person = await this.deps.activeUser(authorId);
      if (person) await mailer.send({ to: person.email, ...content });
    }
  }

  /** A link's reviewer, still an active member with a role, whose sessions have not ended since. */
  private async linkReviewer(token: string) {
    const link = await reviewTokens.verify(token, await this.deps.signingKey());
    const person = await this.deps.activeUser(link.reviewerId);
    const { workspace, member } = await this.deps.workspaces.access(link.workspaceId, link.reviewerId);
    if (!person || !workspace || !member) throw badRequest(ReviewMessages.linkInvalid, 'invalid_review_link');
    if ((person.sessionVersion ?? 0) !== link.sessionVersion)
      throw badRequest(ReviewMessages.linkRevoked, 'review_link_revoked');
    return { link, person, member, workspaceName: workspace.name };
  }

  /** What a reviewer's link shows; reading it never acts (mail scanners prefetch links). */
  async previewLink(token: string): Promise<ReviewLinkPreview> {
    const { link, person, workspaceName } = await this.linkReviewer(token);
    const article = await this.deps.articles.get(link.workspaceId, link.articleId);
    const review = article?.[reviewAttribute(link.platform)];
    if (!article || !review) throw badRequest(ReviewMessages.linkInvalid, 'invalid_review_link');
    return {
      success: true,
      action: link.action,
      title: article.title,
      platform: link.platform,
      content: versionText(article, link.platform),
      workspaceName,
      reviewerName: person.name,
      stage: review.stage,
      stages: stagesOf(review.mode),
      scheduledFor: scheduledOf(article, link.platform),
      timeZone: approvalTimeZone(person.timezone),
      current: review.rev === link.rev && review.status === 'pending',
      image: article.image ? { generatedAt: article.image.generatedAt, description: article.image.description } : null,
    };
  }

  /**
   * Where the review page reads the picture of the link's version: the store's signed URL of the file (as the
   * approval page's, imageFileLink), for the link's token alone; 404 when there is none.
   */
  async linkImage(token: string): Promise<string> {
    const { link } = await this.linkReviewer(token);
    const article = await this.deps.articles.get(link.workspaceId, link.articleId);
    if (!article) throw badRequest(ReviewMessages.linkInvalid, 'invalid_review_link');
    if (!article.image || !this.deps.signer) throw notFound(ImageUploadMessages.noImage, 'image_not_found');
    const key = imageVersion(link.platform) === 'blog' ? article.image.blogKey : article.image.linkedinKey;
    return imageFileLink(this.deps.signer, key, this.now());
  }

  /** The review page's click: the link's one action, as its reviewer, with the same rules as in the app. */
  async confirmLink(token: string, comment: string | undefined): Promise<ReviewLinkDone> {
    const { link, member } = await this.linkReviewer(token);
    const article = await this.deps.articles.get(link.workspaceId, link.articleId);
    const review = article?.[reviewAttribute(link.platform)];
    if (!article || !review) throw badRequest(ReviewMessages.linkInvalid, 'invalid_review_link');
    if (review.rev !== link.rev || review.status !== 'pending')
      throw conflict(ReviewMessages.linkOutdated, 'outdated_review_link');
    if (link.action === 'changes') {
      if (!comment?.trim()) throw badRequest('Say what should change: the comment is required', 'comment_required');
      await this.requestChanges(link.workspaceId, link.reviewerId, member.role, link.articleId, link.platform, comment);
      return { success: true, message: ReviewMessages.changesRequested };
    }
    const { article: after } = await this.approve(
      link.workspaceId,
      link.reviewerId,
      member.role,
      link.articleId,
      link.platform,
    );
    const approved = after[reviewAttribute(link.platform)]?.status === 'approved';
    return { success: true, message: approved ? ReviewMessages.approved : ReviewMessages.stageApproved };
  }

  /**
   * The scheduled run of a version where review is required (domain/scheduling.ts): approved → publish now;
   * otherwise review starts if it has not (its reviewers are e-mailed) and the version waits. At the end of the
   * grace period (`expiryCheck`) one still unapproved is Expired and its authors are told by e-mail.
   */
  async scheduledRun(
    run: ScheduledRun,
    settings: RequiredReview,
    expiryCheck: boolean,
  ): Promise<'published' | 'waiting' | 'expired' | 'stale'> {
    const article = await this.deps.articles.get(run.userId, run.articleId);
    if (!article || scheduledOf(article, run.platform) !== run.scheduledFor) return 'stale';
    // Published meanwhile (an approval within the grace period publishes at once): nothing left to do.
    if (isPublished(article, run.platform)) return 'stale';
    const review = article[reviewAttribute(run.platform)];
    const now = this.now();
    if (review?.status === 'approved') {
      const published = await this.publishDue(article, run.platform);
      return published ? 'published' : 'expired';
    }
    const state = slotApproval(article, run.platform, settings, now);
    if (expiryCheck || state === 'expired') {
      if (state === 'expired' && review?.expiredFor !== run.scheduledFor) await this.expire(article, run, review);
      return state === 'expired' ? 'expired' : 'waiting';
    }
    if (!review) {
      const started = restarted(undefined, settings, article.createdBy ? [article.createdBy] : [], now);
      await this.write(run.userId, article, run.platform, started, [
        reviewRequested(run.userId, article, run.platform, null, 1, 'scheduled', now),
      ]);
      await this.mailReviewers(run.userId, run.articleId, run.platform, started.rev);
    }
    return 'waiting';
  }

  /** The version's slot passed the grace period unapproved: recorded once per slot, its authors e-mailed. */
  private async expire(article: ArticleRecord, run: ScheduledRun, review: VersionReview | null | undefined) {
    if (review) {
      await this.deps.articles
        .update(
          run.userId,
          article.id,
          { [reviewAttribute(run.platform)]: { ...review, expiredFor: run.scheduledFor, rev: review.rev + 1 } },
          { onlyIfReviewRev: { platform: run.platform, rev: review.rev } },
        )
        .catch(() => undefined);
    }
    const mailer = await this.deps.mailer?.(run.userId);
    if (!mailer) return;
    const base = this.deps.publicUrl();
    for (const authorId of review?.authors ?? []) {
      const person = await this.deps.activeUser(authorId);
      if (!person) continue;
      const when = approvalTimeText(new Date(run.scheduledFor), person.timezone);
      const subject = `Expired: ${article.title} (${versionName(run.platform)})`;
      const text = [
        `"${article.title}" was not approved in time for ${versionName(run.platform)} (scheduled ${when}), so it was not published.`,
        '',
        `Schedule it again once it is approved: ${base}/schedule`,
      ].join('\n');
      const html = `<p>“${escape(article.title)}” was not approved in time for ${versionName(run.platform)} (scheduled ${escape(when)}), so it was not published.</p><p><a href="${escape(`${base}/schedule`)}">Schedule it again</a> once it is approved.</p>`;
      await mailer.send({ to: person.email, subject, text, html });
    }
  }
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What the e-mail says the reviewer is asked for. */
function stageText(mode: Mode, stage: 1 | 2, role: WorkspaceRole): string {
  if (mode === 'one') return `your approval is asked as ${ROLE_NAMES[role]}`;
  return stage === 1
    ? 'first of two approvals (an owner approves after you)'
    : 'final approval (the first stage is approved)';
}
