import { useQuery, type QueryClient } from '@tanstack/react-query';
import { SCHEDULE_REFRESH_MS, type Article } from '@app/shared';
import { articlesApi } from '../api/articles';

/** Every list of articles hangs under this key, so one invalidation refreshes them all. */
export const ARTICLE_LISTS_KEY = ['articles'] as const;
export const articleListKey = {
  all: [...ARTICLE_LISTS_KEY, 'all'] as const,
  unpublished: [...ARTICLE_LISTS_KEY, 'unpublished'] as const,
  published: [...ARTICLE_LISTS_KEY, 'published'] as const,
};

/** docs/product.md (Texts): a list answer of another shape gives "Unexpected API response format". */
export const UNEXPECTED_FORMAT = 'Unexpected API response format';

/** A list answer is an array, or an object with an `articles` array. */
export function toArticleList(answer: unknown): Article[] {
  if (Array.isArray(answer)) return answer as Article[];
  const list = answer && typeof answer === 'object' ? (answer as { articles?: unknown }).articles : undefined;
  if (Array.isArray(list)) return list as Article[];
  throw new Error(UNEXPECTED_FORMAT);
}

/** After a publish (or any change to an article) every list is out of date. */
export const refreshArticleLists = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ARTICLE_LISTS_KEY });

// Lists are cheap and change behind the page's back (drafting, another tab, the scheduler), so they
// are refetched whenever a page that shows them mounts (staleTime 0).

/** The full list (newest first), for the dashboard. */
export function useAllArticles() {
  return useQuery({
    queryKey: articleListKey.all,
    queryFn: async () => toArticleList(await articlesApi.list()),
    staleTime: 0,
  });
}

/** Articles not yet published everywhere, for /schedule: refreshed every 15 s (docs/product.md, Schedule). */
export function useUnpublishedArticles() {
  return useQuery({
    queryKey: articleListKey.unpublished,
    queryFn: async () => toArticleList(await articlesApi.unpublished()),
    staleTime: 0,
    refetchInterval: SCHEDULE_REFRESH_MS,
  });
}

/** Articles published on at least one platform, for /history. */
export function usePublishedArticles() {
  return useQuery({
    queryKey: articleListKey.published,
    queryFn: async () => toArticleList(await articlesApi.published()),
    staleTime: 0,
  });
}
