import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { httpUrlOrNull, publicationsOf, type Article } from '@app/shared';
import { PageHeader } from '../components/PageHeader';
import { Spinner } from '../components/Spinner';
import { TableCardState } from '../components/TableCardState';
import { articleIdOf } from '../components/create/articleQuery';
import { ChannelTag } from '../channels/ChannelTag';
import { CHANNEL_REGISTRY, channelById } from '../channels/registry';
import { usePublishedArticles } from '../hooks/useArticleLists';
import { formatDateTime, useUserTimeZone } from '../lib/userTime';
import '../styles/admin.css';
import '../styles/history.css';

export const HistoryMessages = {
  loadFailed: 'Failed to load published articles',
  empty: 'Nothing published yet.',
  loadMore: 'Load more',
  loadingMore: 'Loading more',
  loadMoreFailed: 'Failed to load more published articles. Try Load more again.',
} as const;

export interface HistoryRow {
  key: string;
  title: string;
  /** The channel's name (shared/src/channels.ts, label) */
  platform: string;
  /** The channel's id (its tag's colours: channels/ChannelTag.tsx). */
  channel: string;
  publishedAt: string | null;
  url: string | null;
}

/**
 * One row per channel an article is published on (publicationsOf: the versions' own channels by their flags, every
 * other channel by its post) with its time, newest publication first.
 */
export function historyRows(articles: Article[]): HistoryRow[] {
  const rows: HistoryRow[] = [];
  for (const article of articles) {
    for (const publication of publicationsOf(article)) {
      // A flag without a time is not published by the shared rule (isPublished, shared/src/status.ts).
      if (!publication.at) continue;
      rows.push({
        key: `${articleIdOf(article)}-${publication.channel}`,
        title: article.title,
        platform: channelById(publication.channel)?.label ?? publication.channel,
        channel: publication.channel,
        publishedAt: publication.at,
        // Only an http(s) address becomes the View link (a stored one may predate that check).
        url: httpUrlOrNull(publication.url),
      });
    }
  }
  const time = (row: HistoryRow) => (row.publishedAt ? Date.parse(row.publishedAt) || 0 : 0);
  return rows.sort((a, b) => time(b) - time(a));
}

/** docs/product.md (History): what was published where and when (in the user's time zone). */
export default function HistoryPage() {
  const labels = CHANNEL_REGISTRY.map((channel) => channel.label);
  const channelList = labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels.join('');
  const timeZone = useUserTimeZone();
  const query = usePublishedArticles();
  // Every page loaded so far; rows are ordered across them (an article's older platform may fall below a later page's rows).
  const rows = useMemo(() => historyRows(query.data?.pages.flatMap((page) => page.articles) ?? []), [query.data]);

  return (
    <div className="page">
      <PageHeader
        title="Published Articles History"
        description={`Everything you have published on ${channelList}. Times are shown in ${timeZone}.`}
      />
      <section className="card admin-card history-card" aria-label="Published posts">
        <TableCardState
          query={query}
          loadingLabel="Loading published articles"
          failedText={HistoryMessages.loadFailed}
          empty={rows.length === 0}
          emptyText={HistoryMessages.empty}
          emptyAction={
            <Link className="btn btn--primary btn--sm" to="/create">
              Create New Article
            </Link>
          }
        >
          <div className="table-wrap">
            <table className="table table--stacked history-table">
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Platform</th>
                  <th scope="col">Published Date</th>
                  <th scope="col" className="table__action">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.key}>
                    <td className="history-table__title" data-label="Title">
                      {row.title}
                    </td>
                    <td data-label="Platform">
                      <ChannelTag channel={row.channel} className="platform-tag">
                        {row.platform}
                      </ChannelTag>
                    </td>
                    <td className="history-table__date" data-label="Published Date">
                      {row.publishedAt ? (
                        <time dateTime={row.publishedAt}>{formatDateTime(row.publishedAt, timeZone)}</time>
                      ) : (
                        'Unknown'
                      )}
                    </td>
                    <td className="table__action">
                      {row.url ? (
                        <a
                          className="btn btn--secondary btn--sm"
                          href={row.url}
                          target="_blank"
                          rel="noopener noreferrer"
                        >
                          View Post
                          <span className="sr-only">
                            {' '}
                            {row.title} on {row.platform} (opens in a new tab)
                          </span>
                        </a>
                      ) : (
                        <span className="muted">No link</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {query.hasNextPage && (
            <div className="history-more">
              <button
                type="button"
                className="btn btn--secondary"
                onClick={() => void query.fetchNextPage()}
                disabled={query.isFetchingNextPage}
                aria-busy={query.isFetchingNextPage}
              >
                {query.isFetchingNextPage ? (
                  <>
                    <span aria-hidden="true">
                      <Spinner size="sm" />
                    </span>
                    {HistoryMessages.loadingMore}
                  </>
                ) : (
                  HistoryMessages.loadMore
                )}
              </button>
              {query.isFetchNextPageError && (
                <p className="alert alert--error" role="alert">
                  {HistoryMessages.loadMoreFailed}
                </p>
              )}
            </div>
          )}
        </TableCardState>
      </section>
    </div>
  );
}
