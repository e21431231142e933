import { useQuery } from '@tanstack/react-query';
import { ConnectionHealthMessages, type HealthProblem } from '@app/shared';
import { request } from '../../api/client';
import { articleListKey } from '../../hooks/useArticleLists';
import { SettingsMessages } from './messages';

/**
 * What the check before a scheduled slot found wrong with a channel's connection (docs/product.md, Connection
 * health), shown above the channel's panel: read from the Schedule list's answer (each article's `health`), so a
 * problem is shown while a slot it concerns is still ahead.
 */
export function ConnectionProblems({ channel }: { channel: string }) {
  const { data } = useQuery({
    queryKey: articleListKey.unpublished,
    queryFn: async () => (await request('articles.unpublished')).articles,
    staleTime: 0,
  });
  const problems: HealthProblem[] = [];
  for (const article of data ?? [])
    // Every version's note (the blog's, LinkedIn's, a channel's own), as the server keys them.
    for (const note of Object.values(article.health ?? {}))
      for (const problem of note?.problems ?? [])
        if (problem.channel === channel && problem.fix === 'settings' && !problems.some((p) => p.code === problem.code))
          problems.push(problem);
  if (!problems.length) return null;
  return (
    <div className="alert alert--warning settings-attention" role="status">
      {problems.map((problem) => (
        <p key={problem.code}>
          {SettingsMessages.needsAttention(ConnectionHealthMessages.onSettingsPage(problem.message))}
        </p>
      ))}
    </div>
  );
}
