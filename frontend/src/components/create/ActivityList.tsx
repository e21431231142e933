import { useId, useState } from 'react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { activityLabel, type ActivityEntry } from '@app/shared';
import { errorText, request } from '../../api/client';
import { formatDateTime, useUserTimeZone } from '../../lib/userTime';
import { BusyButton } from '../Spinner';

export const activityQueryKey = (articleId: string) => ['activity', articleId] as const;

export const ActivityTexts = {
  loadFailed: 'The activity could not be loaded.',
  none: 'Nothing yet.',
} as const;

/** "Mar 4, 2025, 10:05 UTC", or for a burst of edits its first and last time. */
function when(entry: ActivityEntry, timeZone: string): string {
  const from = formatDateTime(entry.at, timeZone);
  return entry.until ? `${from} – ${formatDateTime(entry.until, timeZone)}` : from;
}

/**
 * The article's activity (docs/product.md, Comments and activity): collapsed until opened, then newest first, a
 * page at a time (the server reads one page per call), with "Show more" while there is more.
 */
export function ActivityList({ articleId, version }: { articleId: string; version?: string }) {
  const uid = useId();
  const [open, setOpen] = useState(false);
  const timeZone = useUserTimeZone();
  const activity = useInfiniteQuery({
    queryKey: [...activityQueryKey(articleId), version ?? ''],
    queryFn: ({ pageParam, signal }) =>
      request(
        'articles.activity',
        { params: { id: articleId }, query: pageParam === null ? {} : { cursor: pageParam } },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: open && Boolean(articleId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];
  const panel = `${uid}-panel`;

  return (
    <section className="activity" aria-labelledby={`${uid}-title`}>
      <h3 id={`${uid}-title`} className="activity__heading">
        <button
          type="button"
          className="activity__toggle"
          aria-expanded={open}
          aria-controls={panel}
          onClick={() => setOpen((was) => !was)}
        >
          <span className="activity__chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          Activity
        </button>
      </h3>
      <div id={panel} hidden={!open} className="activity__panel">
        {open &&
          (activity.isError && !activity.data ? (
            <p className="field__error" role="alert">
              {errorText(activity.error, ActivityTexts.loadFailed)}
            </p>
          ) : activity.isPending ? (
            <p className="muted">Loading activity…</p>
          ) : entries.length === 0 ? (
            <p className="muted">{ActivityTexts.none}</p>
          ) : (
            <>
              <ol className="activity__list">
                {entries.map((entry) => (
                  <li key={entry.id} className="activity__entry">
                    <span className="activity__what">{activityLabel(entry)}</span>
                    {entry.actor && <span className="activity__who">{entry.actor}</span>}
                    <time className="activity__time" dateTime={entry.until ?? entry.at}>
                      {when(entry, timeZone)}
                    </time>
                  </li>
                ))}
              </ol>
              {activity.hasNextPage && (
                <BusyButton
                  type="button"
                  className="btn btn--secondary btn--sm"
                  busy={activity.isFetchingNextPage}
                  disabled={activity.isFetchingNextPage}
                  label="Show more"
                  busyLabel="Loading..."
                  onClick={() => void activity.fetchNextPage()}
                />
              )}
            </>
          ))}
      </div>
    </section>
  );
}
