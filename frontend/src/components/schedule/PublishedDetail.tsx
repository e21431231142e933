import { formatDateTime } from '../../lib/userTime';
import { RowDialogButton } from './ScheduleButton';

/**
 * A Schedule card row's line once its channel has the post: "Published <time> · View on …" (the version's own row,
 * ArticleCard, and a second channel's row, channels/also.tsx, alike).
 */
export function PublishedDetail({
  publishedAt,
  url,
  viewOn,
  timeZone,
}: {
  publishedAt: string | null | undefined;
  /** The post's http(s) address, or null (no link). */
  url: string | null;
  /** The link's words (the channel's `texts.viewOn`). */
  viewOn: string;
  timeZone: string;
}) {
  return (
    <p className="platform-row__detail">
      Published {publishedAt && <time dateTime={publishedAt}>{formatDateTime(publishedAt, timeZone)}</time>}
      {url && (
        <>
          {' · '}
          <a href={url} target="_blank" rel="noopener noreferrer">
            {viewOn}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </>
      )}
    </p>
  );
}

/** A row's Publish Now button; `sr` completes its name for a screen reader ("to <the channel>"). */
export function PublishNowButton({
  sr,
  onClick,
  variant = 'primary',
}: {
  sr: string;
  onClick: () => void;
  variant?: 'primary' | 'secondary';
}) {
  return <RowDialogButton label="Publish Now" sr={sr} onClick={onClick} variant={variant} />;
}
