import type { Article } from '@app/shared';
import type { BadgeTone } from './StatusBadge';
import { ScheduleMessages } from './messages';

/** A channel row's own state in an approval that publishes to several channels (a blog-first bundle). */
export interface BundleRowState {
  badge: string;
  tone: BadgeTone;
  /** The channel's own failure, in the server's words. */
  failure?: string;
}

/**
 * The state of a channel's row that has no post yet: failed (the last approval named it, Article.lastError.channels),
 * or, in a blog-first bundle whose blog version is scheduled, waiting for the approval and the blog post. Undefined:
 * the row keeps its version's own status.
 */
export function bundleRowState(
  article: Article,
  channelId: string,
  { posted, social }: { posted: boolean; social: boolean },
): BundleRowState | undefined {
  if (posted) return undefined;
  const failure = article.lastError?.channels?.[channelId];
  if (failure) return { badge: ScheduleMessages.failedBadge, tone: 'danger', failure };
  if (social && article.bundle && article.scheduled?.blog)
    return { badge: ScheduleMessages.waitingBadge, tone: 'neutral' };
  return undefined;
}

/** A failed channel's line on its row and its retry button (the confirmation of a Publish Now of that channel). */
export function BundleFailure({ label, failure, onRetry }: { label: string; failure: string; onRetry?: () => void }) {
  return (
    <>
      <p className="platform-row__detail platform-row__failure">{ScheduleMessages.channelFailed(label, failure)}</p>
      {onRetry && (
        <div className="platform-row__actions">
          <button type="button" className="btn btn--primary btn--sm" aria-haspopup="dialog" onClick={onRetry}>
            {ScheduleMessages.retryChannel(label)}
          </button>
        </div>
      )}
    </>
  );
}
