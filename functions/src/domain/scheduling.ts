import { SignJWT, jwtVerify } from 'jose';
import {
  approvalTimeText,
  approvalTimeZone,
  httpUrlOrNull,
  ImageUploadMessages,
  OfflineDraftMessages,
  offlineDraftNoteLines,
  RunFailureMessages,
  RunRetryMessages,
  ScheduleMessages,
  isPlatform,
  isPublished,
  listText,
  scheduledTime,
  scheduledVersions,
  type LinkedInIdentity,
  type RunFailureCode,
  type ScheduleInput,
  type VersionId,
  goesTo,
} from '@app/shared';
import type { ApprovalDone, ApprovalPreview } from '@app/shared/api';
import { approvalEmailContent, versionName } from './approval-email.js';
import type { PublishChannel } from '../channels/channel.js';
import { versionText, type ArticleRecord, type ArticleService } from './articles.js';
import { imageVersion } from './version-names.js';
import { isOwnersMailFailure, type EmailService } from './email.js';
import { IMAGE_CID, imageFileLink, inlineImage, newestImageFile } from './images.js';
import type { BusinessEvents } from './events.js';
import { eventErrorMessage, eventPlatform, makeEvent, outboxEntry, type OutboxEntry } from './automation-events.js';
import { badRequest, conflict, notFound, UpstreamError } from './errors.js';
import type { ArticleStore, ObjectStore, ScheduledRun, Scheduler, UploadSigner } from './ports.js';
import { errorOf, type PublishingService } from './publishing.js';
import type { ReviewService } from './review.js';
import { nextRunRetry, runAttempts, type RunRetry } from './run-retries.js';

/** "Now" as picked in the UI reaches the server a moment later: such times count as now. */
const NOW_GRACE_MS = 5 * 60 * 1000;
/** How long an approval link works. */
const APPROVAL_TTL_DAYS = 7;
const APPROVAL_TTL_S = APPROVAL_TTL_DAYS * 24 * 3600;

export const ApprovalMessages = {
  invalid: 'This approval link is not valid or has expired. Open the article on the Schedule page instead.',
  /** The owner changed the password or signed out everywhere since the e-mail: its links end like sessions. */
  revoked:
    'This approval link no longer works: the account’s password was changed or it was signed out everywhere since it was sent. Sign in and open the article on the Schedule page instead.',
  outdated:
    'This approval link is for an earlier schedule of this article. Open the Schedule page to see the current one.',
  done: 'Approved and published.',
  /** The approval of a version published to several channels (a second blog channel beside WordPress), all done. */
  doneTo: (labels: readonly string[]) => `Approved and published to ${listText(labels)}.`,
  /** Some channels failed: which, and why; the link works again for those alone. */
  partlyFailed: (published: readonly string[], failed: readonly { label: string; message: string }[]) =>
    [
      published.length ? `Published to ${listText(published)}.` : '',
      ...failed.map((f) => `${f.label} failed: ${f.message}`),
      `Open this link again to retry ${listText(failed.map((f) => f.label))} only${
        published.length ? `; ${listText(published)} is not posted again` : ''
      }.`,
    ]
      .filter(Boolean)
      .join(' '),
  /** A bundle whose blog post failed: its social posts were not sent. */
  socialWaiting: (labels: readonly string[]) =>
    `${listText(labels)} ${labels.length > 1 ? 'wait' : 'waits'} for the blog post and was not sent.`,
} as const;

export const SchedulingMessages = {
  /** A scheduled run makes the content ready and e-mails for approval: pointless, and confusing, once it is live. */
  alreadyPublished: (platform: VersionId) =>
    `${versionName(platform)} is already published for this article, so it cannot be scheduled again.`,
  /** The article was imported for other channels only (Article.channels): none publishes this version. */
  notItsChannels: (platform: VersionId) =>
    `This article does not go to any channel of its ${versionName(platform)} version: its Channels column in the imported sheet named other channels.`,
} as const;

/**
 * Records the version's time and creates or moves its one-off schedule: the blog's, LinkedIn's or a channel's own
 * version's (`scheduled.<version>`; the handler checks the version is one).
 */
export async function scheduleArticle(
  deps: {
    articles: ArticleStore;
    scheduler: Scheduler;
    /** The channels that go with a version (channels/ids.ts, versionChannelIds): asked only for an article with `channels`. */
    scheduleChannels?: (version: VersionId) => Promise<readonly string[]>;
    now?: Date;
  },
  userId: string,
  id: string,
  input: ScheduleInput,
): Promise<ArticleRecord> {
  const now = deps.now ?? new Date();
  let at = new Date(input.datetime);
  if (at.getTime() < now.getTime() - NOW_GRACE_MS) throw badRequest(ScheduleMessages.pastDate, 'past_date');
  if (at.getTime() < now.getTime()) at = now;
  const scheduledFor = at.toISOString();
  const before = await deps.articles.get(userId, id);
  if (!before) throw notFound('Article not found', 'article_not_found');
  if (isPublished(before, input.platform))
    throw conflict(SchedulingMessages.alreadyPublished(input.platform), 'already_published');
  // Imported for some channels only (Article.channels): a version none of them goes with has nothing to schedule.
  if (before.channels?.length && deps.scheduleChannels) {
    const ofVersion = await deps.scheduleChannels(input.platform);
    if (!ofVersion.some((channel) => before.channels!.includes(channel)))
      throw badRequest(SchedulingMessages.notItsChannels(input.platform), 'channel_not_selected');
  }
  const field = `scheduled.${input.platform}`;
  // The blog-first bundle: the social posts go with the blog version's approval, so LinkedIn's own slot gives way.
  // (A channel's own version, a social post too, likewise.)
  const socialSlots = Object.fromEntries(
    scheduledVersions(before)
      .filter((s) => s.version !== 'blog')
      .map((s) => [`scheduled.${s.version}`, null]),
  );
  const bundle =
    input.platform !== 'blog'
      ? {}
      : input.bundle
        ? { bundle: true, ...socialSlots }
        : before.bundle
          ? { bundle: null }
          : {};
  const updated = await deps.articles.update(userId, id, {
    [field]: scheduledFor,
    ...bundle,
    updatedAt: now.toISOString(),
  });
  if (!updated) throw notFound('Article not found', 'article_not_found');
  try {
    await deps.scheduler.schedule({ userId, articleId: id, platform: input.platform, scheduledFor });
  } catch (err) {
    // Nothing will run at the new time: the card must not say "Scheduled" for it. The previous
    // time (whose schedule, if any, is untouched) comes back.
    await deps.articles.update(userId, id, { [field]: scheduledTime(before.scheduled, input.platform) });
    throw err;
  }
  return updated;
}

/** The signed approval link's token: made by the notifier, read by the approval page. */
const approvalTokens = {
  /** The token and when it expires (epoch seconds). */
  /**
   * `sessionVersion` is the owner's at signing: a link is a bearer credential like a session, so what
   * ends every session (a password change, "Log out everywhere") ends it too.
   */
  async sign(
    run: ScheduledRun,
    key: Uint8Array,
    now: Date,
    sessionVersion: number,
  ): Promise<{ token: string; expiresAt: number }> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt = issuedAt + APPROVAL_TTL_S;
    const token = await new SignJWT({
      purpose: 'approve',
      aid: run.articleId,
      p: run.platform,
      at: run.scheduledFor,
      sv: sessionVersion,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(run.userId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key);
    return { token, expiresAt };
  },
  async verify(token: string, key: Uint8Array): Promise<ScheduledRun & { sessionVersion: number }> {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      if (payload.purpose !== 'approve' || typeof payload.sub !== 'string') throw new Error('purpose');
      return {
        userId: payload.sub,
        articleId: String(payload.aid),
        platform: String(payload.p),
        scheduledFor: String(payload.at),
        // Links signed before versions were bound carry none: they hold while the owner's is still the first.
        sessionVersion: typeof payload.sv === 'number' ? payload.sv : 0,
      };
    } catch {
      throw badRequest(ApprovalMessages.invalid, 'invalid_approval');
    }
  },
};

/**
 * How long a run holds the sending of its approval e-mail: longer than the worker may run (its
 * timeout is 5 minutes, infra/lib/worker-function.ts), so a live run is never doubled, and shorter
 * than Lambda's first retry after a timeout (a minute later), so a run cut off is retried for real.
 */
export const NOTIFY_LEASE_MS = 5.5 * 60 * 1000;

/** A run's failure that was recorded on the article already (lastError), thrown on for the retry. */
export class RecordedRunFailure extends Error {
  constructor(
    readonly code: RunFailureCode,
    options: { cause: unknown },
  ) {
    super(RunFailureMessages[code], options);
    this.name = 'RecordedRunFailure';
  }
}

export interface ApprovalNotifierDeps {
  articles: ArticleStore;
  /** The stored images, so the e-mail can show the platform's picture inline. */
  objects?: ObjectStore;
  articleService: ArticleService;
  email: EmailService;
  /** The owner, or undefined when the account is gone or deactivated (nothing is drafted or sent then). */
  activeOwner: (
    userId: string,
  ) => Promise<{ email: string; name: string; timezone: string; sessionVersion?: number } | undefined>;
  /** Who a LinkedIn post goes out as (the LinkedIn connection), for the e-mail's card; unknown when absent. */
  linkedInIdentity?: (userId: string) => Promise<LinkedInIdentity>;
  /**
   * The channels the approval publishes to (PublishingService.versionChannels, then a bundle's social channels, marked
   * `social`), for the e-mail: it names them and shows each one's preview.
   */
  channelsOf?: (
    userId: string,
    platform: VersionId,
    bundle: boolean,
    /** The article's channels when an import named them (Article.channels): only those are named and previewed. */
    only?: readonly string[],
  ) => Promise<ApprovalEmailChannel[]>;
  signingKey: () => Promise<Uint8Array>;
  publicUrl: () => string;
  /** Reports approval e-mails sent and not sent (metrics in AWS). */
  events?: Pick<BusinessEvents, 'approvalEmailSent' | 'approvalEmailFailed'>;
  /**
   * Automatic retries of a run that failed for a reason a later attempt may not meet (domain/run-retries.ts):
   * the delays, and where the next attempt is scheduled (`cause` is the failure, for the log). Without it a
   * failure is thrown at once (the caller retries).
   */
  retries?: {
    delaysS: readonly number[];
    schedule(run: ScheduledRun, next: RunRetry, cause: unknown): Promise<void>;
  };
  /**
   * Review in team workspaces that require it (domain/review.ts): the run publishes an approved version, or asks
   * for review and waits; `expiryAt` schedules the check at the end of the grace period (the run's retry port).
   */
  review?: {
    service: Pick<ReviewService, 'settingsOf' | 'scheduledRun'>;
    expiryAt(run: ScheduledRun, attempt: number, at: Date): Promise<void>;
  };
  now?: () => Date;
}

/** The attempt number of a review's expiry check: past every retry (domain/run-retries.ts), so never a retry's. */
export const REVIEW_EXPIRY_ATTEMPT = 100;

/**
 * How a scheduled run ended without failing: `stale` (moved or cancelled), `inactive` (the owner is
 * deactivated), `duplicate` (its e-mail went out already), `in-progress` (another delivery of the run
 * holds the e-mail's lease and is sending it), `sent`, `no-mailer` (no way to send), `email-refused`
 * (Gmail refused because of the owner's account: recorded on the article, theirs to fix in Settings), `retrying`
 * (this attempt failed and the next one is scheduled: recorded on the article as run_retrying).
 */
export type NotifyOutcome =
  | 'stale'
  | 'inactive'
  | 'duplicate'
  | 'in-progress'
  | 'sent'
  | 'no-mailer'
  | 'email-refused'
  | 'retrying'
  | 'review-published'
  | 'review-waiting'
  | 'review-expired';

/** The lastError codes a scheduled run records itself: a sent approval e-mail ends them. */
const RUN_OWN_FAILURES: ReadonlySet<string> = new Set<RunFailureCode>([
  'email_failed',
  'email_not_configured',
  'run_failed',
  'run_retrying',
]);

/**
 * Why a scheduled run could not ask for approval (ScheduleMissed's error code): the run-failure codes
 * an article's lastError shows, and owner_inactive (a deactivated account's runs do nothing).
 */
export type ScheduleMissedCode =
  Extract<RunFailureCode, 'email_not_configured' | 'email_failed' | 'run_failed'> | 'owner_inactive';
const ScheduleMissedMessages: Record<ScheduleMissedCode, string> = {
  email_not_configured: RunFailureMessages.email_not_configured,
  email_failed: RunFailureMessages.email_failed,
  run_failed: RunFailureMessages.run_failed,
  owner_inactive: "The owner's account is deactivated: the scheduled run drafted and sent nothing.",
};

/**
 * The scheduled run (worker): makes sure of the content and e-mails the owner a signed approval
 * link. Kept apart from ApprovalLinks so the approval page's function does not carry the AI and
 * e-mail code (cold start, docs/testing.md, Performance budgets).
 */
export class ApprovalNotifier {
  private readonly now: () => Date;
  constructor(private readonly deps: ApprovalNotifierDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * The scheduled run: content is made sure of, then the owner is asked to approve by e-mail.
   * Moved or cancelled schedules do nothing; a repeated delivery e-mails once. A failure a later attempt may
   * not meet schedules the next `attempt` (RunRetryScheduler) and is recorded with when it is; the last
   * attempt's failure, or one whose retry could not be scheduled, is thrown (recorded first) for the caller to
   * retry and then hand to a person (the failure queue). The owner's Gmail refusing is recorded and returned
   * (NotifyOutcome): trying again cannot help until they act, so it is never retried.
   */
  async generateAndNotify(run: ScheduledRun, attempt = 1): Promise<NotifyOutcome> {
    const seen: { title: string | null; timezone?: string } = { title: null };
    try {
      return await this.notify(run, (title, timezone) => Object.assign(seen, { title, timezone }), attempt);
    } catch (err) {
      // Failures recorded with their own code (email_failed) were emitted already. Anything else is this
      // attempt's run_failed.
      if (!(err instanceof RecordedRunFailure))
        await this.deps.articles.recordEvents([this.missed(run, seen.title, 'run_failed', true)]);
      const retry = await this.retryLater(run, attempt, seen.timezone, err);
      if (retry === 'scheduled') return 'retrying';
      // Recorded as given up: the caller must not record its generic run_failed over it.
      if (retry === 'used-up' && !(err instanceof RecordedRunFailure))
        throw new RecordedRunFailure('run_failed', { cause: err });
      throw err;
    }
  }

  /**
   * Schedules the run's next attempt and says so on the article: `scheduled`. `used-up` after the last attempt
   * (the article then says so) and `not-scheduled` when there are no retries or scheduling failed: the failure
   * is thrown then, so the caller's own retries and failure queue still apply.
   */
  private async retryLater(
    run: ScheduledRun,
    attempt: number,
    timezone: string | undefined,
    err: unknown,
  ): Promise<'scheduled' | 'used-up' | 'not-scheduled'> {
    const retries = this.deps.retries;
    if (!retries) return 'not-scheduled';
    const attempts = runAttempts(retries.delaysS);
    const next = nextRunRetry(attempt, this.now(), retries.delaysS);
    if (!next) {
      await this.recordIfCurrent(run, 'run_failed', RunRetryMessages.gaveUp(attempts));
      return 'used-up';
    }
    try {
      await retries.schedule(run, next, err);
    } catch {
      return 'not-scheduled';
    }
    await this.recordIfCurrent(
      run,
      'run_retrying',
      RunRetryMessages.retrying(next.attempt, attempts, approvalTimeText(next.at, timezone ?? 'UTC')),
    );
    return 'scheduled';
  }

  /** Records the run's failure unless the owner moved or cancelled it meanwhile (their new time is not failing). */
  private async recordIfCurrent(run: ScheduledRun, code: RunFailureCode, message: string): Promise<void> {
    const article = await this.deps.articles.get(run.userId, run.articleId).catch(() => undefined);
    if (article?.scheduled[run.platform] !== run.scheduledFor) return;
    await this.deps.articles.update(run.userId, run.articleId, { lastError: { code, message } }).catch(() => undefined);
  }

  /** ScheduleMissed: the run could not ask the owner for approval (written with what the run records of it). */
  private missed(
    run: ScheduledRun,
    title: string | null,
    code: ScheduleMissedCode,
    retryable: boolean,
    options: { toWebhook?: boolean } = {},
  ): OutboxEntry {
    return outboxEntry(
      makeEvent(
        'ScheduleMissed',
        {
          userId: run.userId,
          articleId: run.articleId,
          title,
          platform: eventPlatform(run.platform),
          scheduledFor: run.scheduledFor,
          error: { code, message: eventErrorMessage(ScheduleMissedMessages[code]) },
          retryable,
          actorId: null,
        },
        this.now(),
      ),
      options,
    );
  }

  /**
   * Where the workspace requires review, the run does not e-mail the owner: an approved version is published, an
   * unapproved one asks its reviewers (once) and waits until the end of the grace period, when it expires.
   * Undefined where review is not required (the approval e-mail as ever).
   */
  private async reviewRun(run: ScheduledRun, attempt: number): Promise<NotifyOutcome | undefined> {
    const review = this.deps.review;
    if (!review) return undefined;
    const settings = await review.service.settingsOf(run.userId);
    if (settings.personal || settings.mode === 'author') return undefined;
    const expiryCheck = attempt === REVIEW_EXPIRY_ATTEMPT;
    const outcome = await review.service.scheduledRun(
      run,
      { mode: settings.mode, graceHours: settings.graceHours },
      expiryCheck,
    );
    if (outcome === 'waiting' && !expiryCheck) {
      const at = new Date(Date.parse(run.scheduledFor) + settings.graceHours * 3600_000);
      await review.expiryAt(run, REVIEW_EXPIRY_ATTEMPT, at);
    }
    return outcome === 'published'
      ? 'review-published'
      : outcome === 'expired'
        ? 'review-expired'
        : outcome === 'stale'
          ? 'stale'
          : 'review-waiting';
  }

  private async notify(
    run: ScheduledRun,
    seen: (title: string, timezone?: string) => void,
    attempt = 1,
  ): Promise<NotifyOutcome> {
    const { userId, articleId, platform, scheduledFor } = run;
    let article = await this.deps.articles.get(userId, articleId);
    // Moved or cancelled: nothing was missed (the schedule of the new time, if any, runs then).
    if (!article || scheduledTime(article.scheduled, platform) !== scheduledFor) return 'stale';
    seen(article.title);
    // A deactivated account's schedules stay, but nothing runs for it (deactivation takes effect at once).
    const owner = await this.deps.activeOwner(userId);
    if (owner) seen(article.title, owner.timezone);
    if (!owner) {
      // Not to the deactivated owner's webhook: nothing runs for that account.
      await this.deps.articles.recordEvents([
        this.missed(run, article.title, 'owner_inactive', false, { toWebhook: false }),
      ]);
      return 'inactive';
    }
    const review = await this.reviewRun(run, attempt);
    if (review) return review;
    const now = this.now();
    const claim = await this.deps.articles.claimNotify(
      userId,
      articleId,
      platform,
      scheduledFor,
      now.toISOString(),
      new Date(now.getTime() + NOTIFY_LEASE_MS).toISOString(),
    );
    if (claim === 'done') return 'duplicate';
    // Another delivery of this run is sending now (a duplicate delivery of the Scheduler or the queue): it
    // records its own failure and is retried by its own invocation, whose lease outlasts it
    // (NOTIFY_LEASE_MS), so this one has nothing to do and is no failure.
    if (claim === 'held') return 'in-progress';
    try {
      if (!versionText(article, platform).trim())
        article = (await this.deps.articleService.generateContent(userId, articleId, { actorId: null })) ?? article;
      const { address, mailer } = await this.deps.email.notifier(userId);
      const to = address ?? owner.email;
      if (!mailer || !to) {
        await this.recordFailure(userId, articleId, 'email_not_configured');
        this.deps.events?.approvalEmailFailed('email_not_configured');
        await this.deps.articles.finishNotify(userId, articleId, platform, scheduledFor, [
          this.missed(run, article.title, 'email_not_configured', false),
        ]);
        return 'no-mailer';
      }
      const { message, expiresAt } = await this.approvalEmail(
        article,
        run,
        to,
        owner.timezone,
        owner.sessionVersion ?? 0,
      );
      try {
        await mailer.send(message);
      } catch (err) {
        this.deps.events?.approvalEmailFailed('email_failed');
        // Refused because of the owner's Google account: a retry would fail alike, so this run ends here
        // (a later delivery, e.g. a redrive once they reconnected, may still send it: the lease is given up).
        const ownersToFix = isOwnersMailFailure(err);
        await this.recordFailure(userId, articleId, 'email_failed', [
          this.missed(run, article.title, 'email_failed', !ownersToFix),
        ]);
        if (ownersToFix) {
          await this.deps.articles.releaseNotify(userId, articleId, platform, scheduledFor);
          return 'email-refused';
        }
        throw new RecordedRunFailure('email_failed', { cause: err });
      }
      this.deps.events?.approvalEmailSent();
      // No link in the event: it is a bearer token of the owner's.
      const requested = makeEvent(
        'ApprovalRequested',
        {
          userId,
          articleId,
          title: article.title,
          platform: eventPlatform(platform),
          scheduledFor,
          approvalExpiresAt: new Date(expiresAt * 1000).toISOString(),
          actorId: null,
        },
        this.now(),
      );
      await this.deps.articles.finishNotify(userId, articleId, platform, scheduledFor, [outboxEntry(requested)]);
      // A previous failure of this run's e-mail (or of an earlier attempt of it) is over.
      if (article.lastError && RUN_OWN_FAILURES.has(article.lastError.code))
        await this.deps.articles.update(userId, articleId, { lastError: null });
      return 'sent';
    } catch (err) {
      await this.deps.articles.releaseNotify(userId, articleId, platform, scheduledFor); // let the retry try again
      throw err;
    }
  }

  private async recordFailure(
    userId: string,
    articleId: string,
    code: RunFailureCode,
    events?: OutboxEntry[],
  ): Promise<void> {
    await this.deps.articles.update(
      userId,
      articleId,
      { lastError: { code, message: RunFailureMessages[code] } },
      { events },
    );
  }

  private async approvalEmail(
    article: ArticleRecord,
    run: ScheduledRun,
    to: string,
    timezone: string,
    sessionVersion: number,
  ) {
    const base = this.deps.publicUrl();
    const { token, expiresAt } = await approvalTokens.sign(
      run,
      await this.deps.signingKey(),
      this.now(),
      sessionVersion,
    );
    const text = versionText(article, run.platform);
    // The newest image (one replaced meanwhile shows the new one, not none); a failed read sends the e-mail without it.
    const found = this.deps.objects
      ? await newestImageFile(
          { articles: this.deps.articles, objects: this.deps.objects },
          article,
          imageVersion(run.platform),
        ).catch(() => undefined)
      : undefined;
    const image = found?.file;
    const shownImage = found?.image ?? article.image;
    const quota = article.lastError?.code === 'insufficient_quota';
    const noteLines = offlineDraftNoteLines(text).map((l) => l.line);
    const problem = quota
      ? `OpenAI credits are insufficient, so the ${versionName(run.platform)} text could not be generated: ${article.lastError!.message}`
      : !text.trim()
        ? `There is no ${versionName(run.platform)} text yet${article.lastError ? `: ${article.lastError.message}` : '.'}`
        : noteLines.length > 0
          ? OfflineDraftMessages.emailNeedsEdit(
              isPlatform(run.platform) ? run.platform : versionName(run.platform),
              noteLines,
            )
          : '';
    const channels = await this.deps.channelsOf?.(run.userId, run.platform, article.bundle === true, article.channels);
    // The card's author; without it the card shows the neutral one (the e-mail goes all the same).
    const identity =
      (run.platform === 'linkedin' || channels?.some((c) => c.id === 'linkedin')) && this.deps.linkedInIdentity
        ? await this.deps.linkedInIdentity(run.userId).catch(() => undefined)
        : undefined;
    const imageShown = shownImage ? { description: shownImage.description, cid: image ? IMAGE_CID : null } : null;
    const previewInput = {
      title: article.title,
      topic: article.topic,
      image: imageShown,
      linkedIn: { identity, mode: article.linkedInMode },
    };
    // Several channels, or a channel's own version: each post, previewed by its channel (its folder's
    // email-preview.ts). The version's channels publish one post (a second blog: the same blog post on each), shown
    // once with where it goes; a bundle's social posts are each their own.
    const previews =
      channels?.length && (channels.length > 1 || !isPlatform(run.platform)) && channels.every((c) => c.emailPreview)
        ? await Promise.all(
            samePostGroups(channels).map(async (group) => {
              const [first] = group;
              const labels = group.map((c) => c.label);
              return {
                label: listText(labels),
                ...(group.length > 1 ? { goesTo: labels } : {}),
                ...(await first.emailPreview!(article, { ...previewInput, blogLink: first.social === true })),
              };
            }),
          )
        : undefined;
    const content = await approvalEmailContent({
      platform: run.platform,
      title: article.title,
      content: text,
      when: approvalTimeText(new Date(run.scheduledFor), timezone),
      problem,
      channels: channels?.map((c) => c.label),
      image: imageShown,
      linkedIn: { identity, mode: article.linkedInMode },
      topic: article.topic,
      ...(previews ? { previews } : {}),
      approveUrl: `${base}/approve?token=${encodeURIComponent(token)}`,
      scheduleUrl: `${base}/schedule`,
      linkDays: APPROVAL_TTL_DAYS,
    });
    const message = { to, ...content, ...(image ? { inline: [inlineImage(image)] } : {}) };
    return { message, expiresAt };
  }
}

/**
 * The posts an approval's channels make, each as the channels that publish it: the version's channels publish the
 * same post (one group, in their order), a bundle's social channels each their own (pure).
 */
export function samePostGroups<C extends { social?: boolean }>(channels: readonly C[]): [C, ...C[]][] {
  const [first, ...more] = channels.filter((c) => !c.social);
  return [
    ...(first ? [[first, ...more] as [C, ...C[]]] : []),
    ...channels.filter((c) => c.social).map((c) => [c] as [C]),
  ];
}

/** A channel an approval publishes to, as its e-mail shows it. */
export type ApprovalEmailChannel = Pick<PublishChannel, 'id' | 'label' | 'emailPreview'> & {
  /** A blog-first bundle's social post: it carries the blog post's link. */
  social?: boolean;
};

export interface ApprovalLinksDeps {
  articles: ArticleStore;
  publishing: PublishingService;
  /**
   * The owner while the account is active, else undefined: a deactivated owner's links show and publish
   * nothing, and a link signed at another session version has been ended with the sessions. Its zone is the
   * page's for the time.
   */
  activeOwner: (userId: string) => Promise<{ id?: string; timezone: string; sessionVersion?: number } | undefined>;
  /** Signs the store's reads: the page shows the platform's picture with the link's token (no session). */
  signer?: Pick<UploadSigner, 'signDownload'>;
  /** Who a LinkedIn post goes out as (the LinkedIn connection), for the page's card. */
  linkedInIdentity?: (userId: string) => Promise<LinkedInIdentity>;
  signingKey: () => Promise<Uint8Array>;
}

/** The approval page: what a link shows, and the one-click approval that publishes. */
export class ApprovalLinks {
  constructor(private readonly deps: ApprovalLinksDeps) {}

  private async verifyApproval(token: string): Promise<ScheduledRun & { timezone: string; approverId?: string }> {
    const { sessionVersion, ...run } = await approvalTokens.verify(token, await this.deps.signingKey());
    const owner = await this.deps.activeOwner(run.userId);
    if (!owner) throw badRequest(ApprovalMessages.invalid, 'invalid_approval');
    if ((owner.sessionVersion ?? 0) !== sessionVersion) throw badRequest(ApprovalMessages.revoked, 'approval_revoked');
    return { ...run, timezone: owner.timezone, approverId: owner.id };
  }

  /**
   * What the confirmation page shows: the version's whole text, which the page renders as publishing will send
   * it, its image, who a LinkedIn post goes out as, and the owner's zone for the time (the person may open the
   * link anywhere). Reading it never publishes (mail scanners prefetch links).
   */
  async previewApproval(token: string): Promise<ApprovalPreview> {
    const run = await this.verifyApproval(token);
    const article = await this.deps.articles.get(run.userId, run.articleId);
    if (!article) throw badRequest(ApprovalMessages.invalid, 'invalid_approval');
    const bundled = run.platform === 'blog' && article.bundle === true;
    const own = !isPlatform(run.platform);
    const social = bundled ? await this.deps.publishing.socialChannels(run.userId) : [];
    const channels = [...(await this.deps.publishing.versionChannels(run.platform, run.userId)), ...social]
      // Only the article's channels, when an import named them (Article.channels): the others are not published.
      .filter((c) => goesTo(article, c.id))
      .map((c) => ({
        channel: c.id,
        label: c.label,
        postUrl: c.postOf(article)?.url ?? null,
        published: c.postOf(article) !== undefined,
        // The text it publishes, for its preview beside the version's (the page shows each channel's post).
        content: versionText(article, c.version ?? c.platform),
        ...(social.includes(c) ? { social: true as const } : {}),
      }));
    const published =
      channels.length > 1 || own
        ? channels.length > 0 && channels.every((c) => c.published)
        : run.platform === 'blog'
          ? article.blog.publishedToWordPress
          : article.linkedin.publishedToLinkedIn;
    const linkedInShown = run.platform === 'linkedin' || channels.some((c) => c.channel === 'linkedin');
    const identity =
      linkedInShown && this.deps.linkedInIdentity
        ? await this.deps.linkedInIdentity(run.userId).catch(() => undefined)
        : undefined;
    return {
      success: true,
      title: article.title,
      platform: run.platform,
      scheduledFor: run.scheduledFor,
      current: scheduledTime(article.scheduled, run.platform) === run.scheduledFor,
      published,
      content: versionText(article, run.platform),
      timeZone: approvalTimeZone(run.timezone),
      image: article.image ? { generatedAt: article.image.generatedAt, description: article.image.description } : null,
      linkedIn: linkedInShown
        ? {
            mode: article.linkedInMode,
            connected: identity?.connected ?? false,
            memberName: identity?.memberName ?? null,
            pageName: identity?.pageName ?? null,
          }
        : null,
      postUrl: own
        ? (channels.find((c) => c.postUrl)?.postUrl ?? null)
        : run.platform === 'blog'
          ? article.blog.wordpressPostUrl
          : article.linkedin.linkedinPostUrl,
      channels,
    };
  }

  /**
   * Where the page reads the picture of the link's platform: the store's signed URL of the file (as the
   * owner's image route answers, imageFileLink), for the link's token alone; 404 when there is none.
   */
  async approvalImageLink(token: string, now = new Date()): Promise<string> {
    const run = await this.verifyApproval(token);
    const article = await this.deps.articles.get(run.userId, run.articleId);
    if (!article) throw badRequest(ApprovalMessages.invalid, 'invalid_approval');
    if (!article.image || !this.deps.signer) throw notFound(ImageUploadMessages.noImage, 'image_not_found');
    return imageFileLink(
      this.deps.signer,
      imageVersion(run.platform) === 'blog' ? article.image.blogKey : article.image.linkedinKey,
      now,
    );
  }

  /**
   * The one-click approval, after confirmation: publishes that platform, once. The link counts as
   * used once it has published (the mark comes after): one whose publish failed or was cut off
   * stays usable, and two at once make one post (the publish claim; WordPress updates its post,
   * LinkedIn refuses a second), so a retry never posts twice (PublishingService).
   */
  async confirmApproval(token: string): Promise<ApprovalDone> {
    const run = await this.verifyApproval(token);
    const article = await this.deps.articles.get(run.userId, run.articleId);
    if (!article) throw badRequest(ApprovalMessages.invalid, 'invalid_approval');
    if (scheduledTime(article.scheduled, run.platform) !== run.scheduledFor)
      throw conflict(ApprovalMessages.outdated, 'outdated_approval');
    const approved = (article as ArticleRecord & { approved?: Partial<Record<VersionId, string>> }).approved;
    if (approved?.[run.platform] === run.scheduledFor)
      throw conflict('This approval was already used.', 'already_approved');
    const origin = { trigger: 'approval', scheduledFor: run.scheduledFor } as const;
    // Each channel of the version (WordPress and/or another blog channel), each once: one that has its post is not
    // sent again, so after a partial failure the link sends only to the channels that failed.
    const outcomes = await this.deps.publishing.publishVersion(run.platform, run.userId, run.articleId, origin);
    // The blog-first bundle: the social posts go out once the blog post is live, with its address; not before.
    const blogUrl = outcomes.every((o) => o.ok)
      ? outcomes.map((o) => (o.ok ? httpUrlOrNull(o.url) : null)).find(Boolean)
      : undefined;
    const waiting =
      run.platform === 'blog' && article.bundle === true && !blogUrl
        ? (await this.deps.publishing.socialChannels(run.userId)).map((c) => c.label)
        : [];
    if (run.platform === 'blog' && article.bundle === true && blogUrl)
      outcomes.push(...(await this.deps.publishing.publishSocial(run.userId, run.articleId, origin, blogUrl)));
    const failed = outcomes.filter((o) => !o.ok);
    if (failed.length) {
      // One channel: its own refusal, as ever.
      if (outcomes.length === 1 && !waiting.length) throw failed[0]!.error;
      const told = ApprovalMessages.partlyFailed(
        outcomes.filter((o) => o.ok).map((o) => o.label),
        failed.map((o) => ({ label: o.label, message: errorOf(o.error).message })),
      );
      throw new UpstreamError(
        waiting.length ? `${told} ${ApprovalMessages.socialWaiting(waiting)}` : told,
        'publish_partly_failed',
      );
    }
    const done = outcomes.flatMap((o) => (o.ok ? [{ channel: o.channel, label: o.label, postUrl: o.url }] : []));
    const url = done.find((o) => o.postUrl)?.postUrl ?? null;
    // Once per link, with the mark that makes it used: a confirmation whose publish failed wrote PublishFailed
    // and left the link usable, and of two at once only the one that made the mark writes it.
    const approvedEvent = makeEvent('ArticleApproved', {
      userId: run.userId,
      articleId: run.articleId,
      title: article.title,
      platform: eventPlatform(run.platform),
      scheduledFor: run.scheduledFor,
      postUrl: httpUrlOrNull(url),
      // The owner who confirmed (the publish itself is the scheduled run's).
      ...(run.approverId ? { actorId: run.approverId } : {}),
    });
    await this.deps.articles.markOnce(run.userId, run.articleId, 'approved', run.platform, run.scheduledFor, [
      outboxEntry(approvedEvent),
    ]);
    return {
      success: true,
      message: done.length > 1 ? ApprovalMessages.doneTo(done.map((o) => o.label)) : ApprovalMessages.done,
      platform: run.platform,
      postUrl: url,
      channels: done,
    };
  }
}
