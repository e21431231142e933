import { useQuery } from '@tanstack/react-query';
import { PLATFORMS, type HealthProblem } from '@app/shared';
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
    for (const platform of PLATFORMS)
      for (const problem of article.health?.[platform]?.problems ?? [])
        if (problem.channel === channel && problem.fix === 'settings' && !problems.some((p) => p.code === problem.code))
          problems.push(problem);
  if (!problems.length) return null;
  return (
    <div className="alert alert--warning settings-attention" role="status">
      {problems.map((problem) => (
        <p key={problem.code}>{SettingsMessages.needsAttention(problem.message)}</p>
      ))}
    </div>
  );
}
