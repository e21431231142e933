import { Suspense, useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { httpUrlOrNull, platformStatus, type Article, type Platform } from '@app/shared';
import { ScheduleMessages } from '../components/schedule/messages';
import { PublishedDetail, PublishNowButton } from '../components/schedule/PublishedDetail';
import { StatusBadge } from '../components/schedule/StatusBadge';
import { BundleFailure, bundleRowState } from '../components/schedule/bundleRow';
import { alsoChannels } from './registry';
import type { ChannelPreviewProps, RegisteredChannel } from './types';

/**
 * A second channel of a version (`also`, channels/types.ts: a second blog beside the version's own) on the pages that show the
 * version's own channel: its preview under the version's editor and its row on a Schedule card, each while it is
 * connected. It publishes on Publish Now only: the version's schedule and review belong to its own channel.
 */

/** Whether the channel is connected (its status query, shared with its settings panel). */
function useConnected(channel: RegisteredChannel): boolean {
  return useQuery(channel.also!.connected).data === true;
}

function AlsoPreview({ channel, ...props }: ChannelPreviewProps & { channel: RegisteredChannel }) {
  if (!useConnected(channel)) return null;
  return (
    <Suspense fallback={null}>
      <channel.Preview {...props} />
    </Suspense>
  );
}

/** The previews of the version's other channels that are connected (the content step). */
export function AlsoPreviews({ version, ...props }: ChannelPreviewProps & { version: Platform }) {
  return (
    <>
      {/* A channel with a text of its own previews it beside its own editor (GeneratedContentModal). */}
      {alsoChannels(version)
        .filter((channel) => !channel.ownVersion)
        .map((channel) => (
          <AlsoPreview key={channel.id} channel={channel} {...props} />
        ))}
    </>
  );
}

interface AlsoRowProps {
  article: Article;
  channel: RegisteredChannel;
  timeZone: string;
  /** The moment the card's statuses are worked out for. */
  now: Date;
  /** Absent: the current role may not publish there. */
  onPublish?: () => void;
}

/** A Schedule card's row of a connected second channel: its status, Publish Now, then "View on …". */
function AlsoRow({ article, channel, timeZone, now, onPublish }: AlsoRowProps) {
  const nameId = useId();
  const connected = useConnected(channel);
  const posted = channel.posted(article);
  // Shown while connected, and always once posted there (the link stays after a disconnect).
  if (!connected && !posted) return null;
  const publishedAt = channel.also!.postedAt(article);
  const url = httpUrlOrNull(channel.postUrl(article));
  // As the version's own row (docs/product.md, Schedule): no Publish Now before the version is scheduled.
  const scheduled = platformStatus(article, channel.version, now) !== 'not-scheduled';
  // An approval of several channels: this one failed, or (a bundle's social post) it waits for the blog post.
  const bundled = bundleRowState(article, channel.id, { posted, social: !!channel.ownVersion });
  return (
    <section
      className={`platform-row platform-row--${channel.version} platform-row--${channel.id}`}
      aria-labelledby={nameId}
    >
      <div className="platform-row__head">
        <h3 id={nameId} className="platform-row__name">
          {channel.label}
        </h3>
        <StatusBadge
          label={bundled ? bundled.badge : posted ? 'Published' : 'Not published'}
          tone={bundled ? bundled.tone : posted ? 'success' : 'neutral'}
          srPrefix={`${channel.label} status:`}
        />
      </div>
      <div className="platform-row__body">
        {bundled?.failure ? (
          <BundleFailure label={channel.label} failure={bundled.failure} onRetry={scheduled ? onPublish : undefined} />
        ) : posted ? (
          <PublishedDetail publishedAt={publishedAt} url={url} viewOn={channel.texts.viewOn} timeZone={timeZone} />
        ) : bundled ? (
          <p className="platform-row__detail">{ScheduleMessages.withBlogPost}</p>
        ) : scheduled ? (
          <p className="platform-row__detail">
            The {channel.versionNoun} version goes to {channel.label} when you choose Publish Now.
          </p>
        ) : (
          <p className="platform-row__detail muted">{ScheduleMessages.afterScheduling}</p>
        )}
        <div className="platform-row__actions">
          {!posted && !bundled && scheduled && onPublish && (
            <PublishNowButton sr={`to ${channel.label}`} onClick={onPublish} />
          )}
        </div>
      </div>
    </section>
  );
}

/** The rows of the second channels on a Schedule card. */
export function AlsoRows({
  article,
  timeZone,
  now,
  may,
  onPublish,
}: {
  article: Article;
  timeZone: string;
  now: Date;
  /** Whether the current role may call a route. */
  may: (route: RegisteredChannel['publishRoute']) => boolean;
  onPublish: (channel: RegisteredChannel) => void;
}) {
  return (
    <>
      {alsoChannels().map((channel) => (
        <AlsoRow
          key={channel.id}
          article={article}
          channel={channel}
          timeZone={timeZone}
          now={now}
          onPublish={may(channel.publishRoute) ? () => onPublish(channel) : undefined}
        />
      ))}
    </>
  );
}
