import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { SCHEDULE_REFRESH_MS } from '@app/shared';
import { request } from '../api/client';

/** Every list of articles hangs under this key, so one invalidation refreshes them all. */
export const ARTICLE_LISTS_KEY = ['articles'] as const;
export const articleListKey = {
  unpublished: [...ARTICLE_LISTS_KEY, 'unpublished'] as const,
  published: [...ARTICLE_LISTS_KEY, 'published'] as const,
};

/** After a publish (or any change to an article) every list is out of date. */
export const refreshArticleLists = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ARTICLE_LISTS_KEY });

// Lists are cheap and change behind the page's back (drafting, another tab, the scheduler), so they
// are refetched whenever a page that shows them mounts (staleTime 0).

/** Articles not yet published everywhere, for /schedule: refreshed every 15 s (docs/product.md, Schedule). */
export function useUnpublishedArticles() {
  return useQuery({
    queryKey: articleListKey.unpublished,
    queryFn: async () => (await request('articles.unpublished')).articles,
    staleTime: 0,
    refetchInterval: SCHEDULE_REFRESH_MS,
  });
}

/**
 * Articles published on at least one platform, for /history: latest publication first, one page
 * (the server's default size) at a time; `fetchNextPage` loads the next while there is one.
 */
export function usePublishedArticles() {
  return useInfiniteQuery({
    queryKey: articleListKey.published,
    queryFn: ({ pageParam, signal }) =>
      request('articles.published', { query: pageParam === null ? {} : { cursor: pageParam } }, { signal }),
    initialPageParam: null as string | null,
    // null on the last page: then there is no next one.
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });
}
