import { useId, type CSSProperties, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  PLATFORMS,
  PLATFORM_STATUS_LABELS,
  QUOTA_BADGE,
  RUN_FAILURES_FIXED_IN_SETTINGS,
  STATUS_LABELS,
  httpUrlOrNull,
  isPlatform,
  isPublished,
  overallStatus,
  platformBadge,
  platformStatus,
  slotApproval,
  type Article,
  type PlatformStatus,
  type VersionId,
} from '@app/shared';
import { useQuery } from '@tanstack/react-query';
import { useCan } from '../../hooks/useWorkspaces';
import { formatDate, formatDateTime } from '../../lib/userTime';
import { articleIdOf } from '../create/articleQuery';
import { channelColour, channelFor, ownVersionChannels, versionNames } from '../../channels/registry';
import type { RegisteredChannel } from '../../channels/types';
import { AlsoRows } from '../../channels/also';
import { ScheduleMessages } from './messages';
import { PublishedDetail, PublishNowButton } from './PublishedDetail';
import { ScheduleButton } from './ScheduleButton';
import { STATUS_TONES, StatusBadge } from './StatusBadge';
import { BundleFailure, bundleRowState } from './bundleRow';
import { ReviewActions, reviewBadge } from '../review/ReviewActions';
import { useReviewSettings } from '../../hooks/useReviewSettings';

export interface ArticleCardProps {
  article: Article;
  /** The moment the statuses are worked out for (the page passes one "now" to every card). */
  now: Date;
  timeZone: string;
  /**
   * Opens the publish-confirmation modal for one platform (shown only to a role that may publish); `channel`: the id
   * of a second channel of the version (channels/also.tsx), else the version's own channel.
   */
  onPublish: (article: Article, platform: VersionId, channel?: string) => void;
  /**
   * Opens the schedule modal (PUT /api/articles/{id}/schedule). When given, the status badge
   * becomes a button that schedules the platforms not yet published (docs/product.md, Schedule; none left, no
   * button: a published platform is not scheduled again), each not-scheduled platform gets a
   * "Schedule" button and a scheduled one a "Reschedule" button; without it, or for a role that may not schedule,
   * none is shown.
   */
  onSchedule?: (article: Article, platforms: VersionId[]) => void;
  /** Shown at the card's foot (the Schedule page's word on an article it has just published everywhere). */
  footer?: ReactNode;
}

/** The published post's address when it is http(s): only such an address becomes a link. */
const postUrl = (article: Article, platform: VersionId) => httpUrlOrNull(channelFor(platform).postUrl(article));

/**
 * One unpublished article on /schedule (docs/product.md, Schedule). Its actions are the current role's only
 * (docs/product.md, Workspaces): Schedule, Reschedule and Publish Now for an editor or owner; for a reviewer the
 * editor opens read-only (View) and the posting mode is shown but not changed.
 */
export function ArticleCard({
  article,
  now,
  timeZone,
  onPublish: publish,
  onSchedule: schedule,
  footer,
}: ArticleCardProps) {
  const navigate = useNavigate();
  const may = useCan();
  const onSchedule = may('schedule.set') ? schedule : undefined;
  const mayEdit = may('articles.updateBlog');
  const titleId = useId();
  const id = articleIdOf(article);
  const overall = overallStatus(article, now);
  const keywords = [article.keyword, ...(article.tags ?? [])].map((k) => k?.trim()).filter((k): k is string => !!k);
  // An approval of several channels names each that failed: their rows show why, and the card's badge says so.
  const channelsFailed = Object.keys(article.lastError?.channels ?? {}).length > 0;
  const lastError =
    article.lastError && article.lastError.code !== 'insufficient_quota' && !channelsFailed ? article.lastError : null;
  // docs/product.md (Schedule): out of AI credit, the card's badge reads "Not enough credit" (with the error as its
  // tooltip) while any platform is unpublished; the shared per-platform rule decides it.
  const quota = PLATFORMS.map((platform) => platformBadge(article, platform, now)).find((b) => b.label === QUOTA_BADGE);
  const unpublished = PLATFORMS.filter((platform) => platformStatus(article, platform, now) !== 'published');
  const editorPath = `/create?articleId=${encodeURIComponent(id)}`;
  // The title opens the editor while anything is left to publish (Edit keeps its own rule, below).
  const editable = PLATFORMS.some((platform) => !isPublished(article, platform));
  // What the check before each slot found (docs/product.md, Connection health): the server answers only the current
  // slot's problems, keyed by version (a channel's own too); the same sentence told for two versions is listed once.
  const attention = Object.values(article.health ?? {})
    .flatMap((note) => note?.problems ?? [])
    .filter((problem, index, all) => all.findIndex((p) => p.message === problem.message) === index);

  return (
    <article className="card schedule-card" aria-labelledby={titleId}>
      <header className="schedule-card__header">
        <div className="schedule-card__lead">
          {/* What goes out: the blog image (decorative beside the title) and the first lines of the text. */}
          {article.image && (
            <img
              className="schedule-card__thumb"
              src={article.image.url}
              alt=""
              width={108}
              height={72}
              loading="lazy"
              decoding="async"
            />
          )}
          <div className="schedule-card__heading">
            <h2 id={titleId} className="schedule-card__title">
              {editable ? <Link to={editorPath}>{article.title}</Link> : article.title}
            </h2>
            <p className="schedule-card__meta">
              Created <time dateTime={article.createdAt}>{formatDate(article.createdAt, timeZone)}</time>
            </p>
            {article.excerpt && <p className="schedule-card__excerpt">{article.excerpt}</p>}
            {keywords.length > 0 && (
              <ul className="tag-list" aria-label="Keyword and tags">
                {keywords.map((keyword, index) => (
                  <li
                    key={`${keyword}-${index}`}
                    className={`tag${index === 0 && article.keyword?.trim() ? ' tag--keyword' : ''}`}
                  >
                    {keyword}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
        <div className="schedule-card__aside">
          <StatusBadge
            label={quota ? quota.label : channelsFailed ? ScheduleMessages.partlyFailedBadge : STATUS_LABELS[overall]}
            tone={quota || channelsFailed ? 'danger' : STATUS_TONES[overall]}
            tooltip={quota?.tooltip}
            srPrefix="Overall status:"
            onClick={onSchedule && unpublished.length > 0 ? () => onSchedule(article, unpublished) : undefined}
          />
          {/* docs/product.md (Schedule): Edit is shown unless the overall status is not-scheduled. */}
          {overall !== 'not-scheduled' && (
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => navigate(editorPath)}>
              {mayEdit ? 'Edit' : 'View'}
              <span className="sr-only"> {article.title}</span>
            </button>
          )}
        </div>
      </header>

      {article.bundle && <p className="schedule-card__bundle muted">{ScheduleMessages.bundled}</p>}

      {lastError && (
        <p className="alert alert--error schedule-card__error">
          Last attempt failed: {lastError.message}
          {RUN_FAILURES_FIXED_IN_SETTINGS.has(lastError.code) && (
            <>
              {' '}
              <Link to="/settings">Open Settings</Link>
            </>
          )}
        </p>
      )}

      {attention.length > 0 && (
        <div className="alert alert--warning schedule-card__attention" role="status">
          <ul>
            {attention.map((problem, index) => (
              <li key={`${problem.channel}-${problem.code}-${index}`}>
                {ScheduleMessages.needsAttention(problem.message)}{' '}
                <Link to={problem.fix === 'settings' ? '/settings' : editorPath}>
                  {problem.fix === 'settings' ? ScheduleMessages.openSettings : ScheduleMessages.openEditor}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="schedule-card__platforms">
        {PLATFORMS.map((platform) => (
          <PlatformRow
            key={platform}
            article={article}
            platform={platform}
            status={platformStatus(article, platform, now)}
            now={now}
            timeZone={timeZone}
            onPublish={may(channelFor(platform).publishRoute) ? () => publish(article, platform) : undefined}
            onSchedule={onSchedule ? () => onSchedule(article, [platform]) : undefined}
          />
        ))}
        {/* The channels' own versions: a row each, as the versions above (its own schedule and approval). */}
        {ownVersionChannels().map((channel) => (
          <OwnVersionRow
            key={channel.id}
            channel={channel}
            article={article}
            now={now}
            timeZone={timeZone}
            onPublish={may(channel.publishRoute) ? () => publish(article, channel.version, channel.id) : undefined}
            onSchedule={onSchedule ? () => onSchedule(article, [channel.version]) : undefined}
          />
        ))}
        <AlsoRows
          article={article}
          timeZone={timeZone}
          now={now}
          may={may}
          onPublish={(channel) => publish(article, channel.version, channel.id)}
        />
      </div>
      {footer}
    </article>
  );
}

/**
 * The row of a channel's own version: shown while the channel is connected, and always once the version has a slot or
 * its post (kept after a disconnect).
 */
function OwnVersionRow({
  channel,
  ...props
}: Omit<PlatformRowProps, 'platform' | 'status'> & { channel: RegisteredChannel }) {
  const connected = useQuery(channel.ownVersion!.connected).data === true;
  const { article, now } = props;
  const version = channel.version;
  if (!connected && !article.scheduled?.[version] && !channel.posted(article)) return null;
  return <PlatformRow {...props} platform={version} status={platformStatus(article, version, now)} />;
}

interface PlatformRowProps {
  article: Article;
  platform: VersionId;
  status: PlatformStatus;
  now: Date;
  timeZone: string;
  /** Absent: the current role may not publish there. */
  onPublish?: () => void;
  onSchedule?: () => void;
}

function PlatformRow({ article, platform, status, now, timeZone, onPublish, onSchedule }: PlatformRowProps) {
  const nameId = useId();
  const names = versionNames(platform);
  const channel = channelFor(platform);
  const reviewSettings = useReviewSettings();
  // Where review is required, a version not approved reads "Waiting for approval", then "Expired" past the grace
  // period (shared/src/review.ts slotApproval, the scheduled run's own rule).
  const approval = slotApproval(article, platform, reviewSettings, now);
  // "Not enough credit" (with its tooltip) comes from the shared rule; otherwise the platform's own status.
  const badge = platformBadge(article, platform, now);
  // An approval of several channels: this one failed (its reason), or a bundle's social post waits for the blog post.
  const bundled = bundleRowState(article, channel.id, { posted: status === 'published', social: platform !== 'blog' });
  const badgeLabel = badge.tooltip
    ? badge.label
    : bundled
      ? bundled.badge
      : approval
        ? reviewBadge[approval]
        : PLATFORM_STATUS_LABELS[status];
  const badgeTone = badge.tooltip
    ? 'danger'
    : bundled
      ? bundled.tone
      : approval === 'expired'
        ? 'danger'
        : approval
          ? 'warning'
          : STATUS_TONES[status];
  const scheduledAt = article.scheduled?.[platform];
  const publishedAt = isPlatform(platform)
    ? article[platform].lastPublished
    : (channel.ownVersion?.postedAt(article) ?? null);
  const url = postUrl(article, platform);
  // A channel that refuses a second post of the same article (a 409) offers no Publish Now once published; one that
  // updates its post does (shared/src/channels.ts, republishes).
  const canRepublish = channel.republishes;
  const sr = `to ${names.service}`;

  return (
    <section
      className={`platform-row platform-row--${platform}`}
      aria-labelledby={nameId}
      // A channel's own version: the colour of its series on the dashboard (the registry's place, base.css).
      style={isPlatform(platform) ? undefined : ({ '--platform-color': channelColour(channel.id) } as CSSProperties)}
    >
      <div className="platform-row__head">
        <h3 id={nameId} className="platform-row__name">
          {names.row}
        </h3>
        <StatusBadge label={badgeLabel} tone={badgeTone} tooltip={badge.tooltip} />
      </div>

      <div className="platform-row__body">
        {bundled?.failure ? (
          <BundleFailure label={names.service} failure={bundled.failure} onRetry={onPublish} />
        ) : (
          <>
            {status === 'published' ? (
              <PublishedDetail publishedAt={publishedAt} url={url} viewOn={channel.texts.viewOn} timeZone={timeZone} />
            ) : status === 'not-scheduled' && article.bundle && platform !== 'blog' && article.scheduled?.blog ? (
              // A blog-first bundle's social post has no slot of its own: it goes with the blog version's approval.
              <p className="platform-row__detail">{ScheduleMessages.withBlogPost}</p>
            ) : status === 'not-scheduled' ? (
              <p className="platform-row__detail muted">{ScheduleMessages.afterScheduling}</p>
            ) : (
              <p className="platform-row__detail">
                {status === 'scheduled' ? 'Scheduled for ' : 'Ready for approval, scheduled '}
                {scheduledAt && <time dateTime={scheduledAt}>{formatDateTime(scheduledAt, timeZone)}</time>}
              </p>
            )}

            <div className="platform-row__actions">
              {status === 'not-scheduled' ? (
                // docs/product.md (Schedule): no Publish Now until the platform is scheduled; only the text above.
                onSchedule && <ScheduleButton label="Schedule" row={names.row} onClick={onSchedule} primary />
              ) : status !== 'published' ? (
                <>
                  {onPublish && <PublishNowButton sr={sr} onClick={onPublish} />}
                  {onSchedule && status === 'scheduled' && (
                    <ScheduleButton label="Reschedule" row={names.row} onClick={onSchedule} />
                  )}
                </>
              ) : canRepublish && onPublish ? (
                // Published already: publishing again updates the same post (e.g. after an edit).
                <PublishNowButton sr={`${sr} again`} onClick={onPublish} variant="secondary" />
              ) : // Published on a channel that refuses a duplicate post: no button, deliberately.
              null}
            </div>
          </>
        )}

        {!reviewSettings.personal && <ReviewActions article={article} platform={platform} settings={reviewSettings} />}

        {channel.CardExtra && <channel.CardExtra article={article} published={status === 'published'} />}
      </div>
    </section>
  );
}
