import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { CHANNELS, PLATFORMS, QUOTA_BANNER, isPlatform, isPublished, type Article, type VersionId } from '@app/shared';
import { InlineNotice } from '../components/InlineNotice';
import { LoadFailed } from '../components/LoadFailed';
import { PageHeader } from '../components/PageHeader';
import { Spinner } from '../components/Spinner';
import { articleIdOf } from '../components/create/articleQuery';
import { ArticleCard } from '../components/schedule/ArticleCard';
import { ScheduleMessages } from '../components/schedule/messages';
import { channelById, ownVersionChannels } from '../channels/registry';
import { PublishConfirmModal, type PublishResult } from '../components/schedule/PublishConfirmModal';
import { articleListKey, refreshArticleLists, useUnpublishedArticles } from '../hooks/useArticleLists';
import { useInlineNotice } from '../hooks/useInlineNotice';
import { useCan } from '../hooks/useWorkspaces';
import { useUserTimeZone } from '../lib/userTime';
import '../styles/schedule.css';

// The schedule modal brings react-datepicker and its CSS: loaded on demand (fetched once the list is
// up, so the first click opens it without a wait).
const loadScheduleModal = () => import('../components/schedule/ScheduleModal');
const ScheduleModal = lazy(loadScheduleModal);

interface PublishTarget {
  article: Article;
  platform: VersionId;
  /** A second channel of the version (channels/also.tsx). */
  channel?: string;
}

interface ScheduleTarget {
  article: Article;
  platforms: VersionId[];
}

/** An article published everywhere during this visit, and where its card was. */
interface Finished {
  article: Article;
  /** The card before it (null: it was the first), else its index. */
  after: string | null;
  index: number;
}

/**
 * The list with the cards of articles published everywhere during this visit put back where they were:
 * the list no longer has them (it holds what is unpublished), but the person who just published should see
 * the outcome on the card they acted on, not have it vanish (docs/product.md, Schedule).
 */
function withFinished(articles: Article[], finished: readonly Finished[]): Article[] {
  const done = new Set(finished.map((f) => articleIdOf(f.article)));
  const list = articles.filter((a) => !done.has(articleIdOf(a)));
  for (const { article, after, index } of finished) {
    const before = after === null ? -1 : list.findIndex((a) => articleIdOf(a) === after);
    list.splice(after !== null && before >= 0 ? before + 1 : Math.min(index, list.length), 0, article);
  }
  return list;
}

/**
 * docs/product.md (Schedule): one card per article that is not yet published everywhere, refreshed every
 * 15 s, with publishing through a confirmation modal and each channel's own controls (channels/registry.ts).
 * The schedule modal (PUT /api/articles/{id}/schedule) is a later piece of work: it plugs into
 * ArticleCard's `onSchedule`.
 */
export default function SchedulePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const timeZone = useUserTimeZone();
  const listQuery = useUnpublishedArticles();
  const [target, setTarget] = useState<PublishTarget | null>(null);
  const [scheduling, setScheduling] = useState<ScheduleTarget | null>(null);
  const { notice, show, hold, release } = useInlineNotice();
  const [finished, setFinished] = useState<Finished[]>([]);

  const articles = useMemo(
    () => (listQuery.data ? withFinished(listQuery.data, finished) : undefined),
    [listQuery.data, finished],
  );
  // `?articleId=…&schedule=<version>` (a version's Schedule action on Create): that version's Schedule modal, until
  // it is closed (which drops the parameters).
  const [params, setParams] = useSearchParams();
  const mayScheduleHere = useCan()('schedule.set');
  const askedVersion = params.get('schedule');
  const askedArticle = articles?.find((a) => articleIdOf(a) === params.get('articleId'));
  const asked: ScheduleTarget | null =
    askedVersion &&
    askedArticle &&
    mayScheduleHere &&
    (isPlatform(askedVersion) || ownVersionChannels().some((c) => c.version === askedVersion)) &&
    !isPublished(askedArticle, askedVersion)
      ? { article: askedArticle, platforms: [askedVersion] }
      : null;
  const shownScheduling = scheduling ?? asked;
  const finishedIds = new Set(finished.map((f) => articleIdOf(f.article)));
  // One "now" per answer, so every card of a refresh is judged at the same moment.
  const now = useMemo(() => new Date(listQuery.dataUpdatedAt), [listQuery.dataUpdatedAt]);
  const hasArticles = (articles?.length ?? 0) > 0;
  useEffect(() => {
    if (hasArticles) void loadScheduleModal().catch(() => undefined);
  }, [hasArticles]);
  const quota = articles?.some((a) => a.lastError?.code === 'insufficient_quota') ?? false;

  const onPublished = (result: PublishResult) => {
    setTarget(null);
    const updated = result.article;
    // Show the new state at once; an article published everywhere leaves the list (its card stays for this visit).
    const id = articleIdOf(updated);
    const done = PLATFORMS.every((platform) => isPublished(updated, platform));
    if (done) {
      // Its card stays where it was, showing both posts, until the page is left.
      const shown = articles ?? [];
      const index = shown.findIndex((a) => articleIdOf(a) === id);
      const after = index > 0 ? articleIdOf(shown[index - 1]!) : null;
      setFinished((list) => [
        ...list.filter((f) => articleIdOf(f.article) !== id),
        { article: updated, after, index: Math.max(index, 0) },
      ]);
    }
    queryClient.setQueryData<Article[]>(articleListKey.unpublished, (list) =>
      done ? list?.filter((a) => articleIdOf(a) !== id) : list?.map((a) => (articleIdOf(a) === id ? updated : a)),
    );
    show(
      'success',
      result.message,
      result.link ? { href: result.link, label: channelById(result.channel)!.texts.viewOn } : undefined,
    );
    void refreshArticleLists(queryClient);
  };

  // Not for a reviewer, who cannot create (docs/product.md, Workspaces); the cards show only the role's actions.
  const may = useCan();
  const createButton = may('articles.create') ? (
    <button type="button" className="btn btn--primary" onClick={() => navigate('/create')}>
      Create New Article
    </button>
  ) : undefined;

  return (
    <div className="page schedule-page">
      <PageHeader
        title="Article Schedule"
        description={`Articles waiting to go out on your ${CHANNELS.map((channel) => channel.versionNoun).join(' and ')}. This list refreshes itself every 15 seconds.`}
        actions={createButton}
      />

      <div className="schedule-page__notices">
        <InlineNotice notice={notice} onHold={hold} onRelease={release} />
      </div>

      {quota && (
        <div className="alert alert--warning schedule-page__banner" role="alert">
          {QUOTA_BANNER}
        </div>
      )}

      {listQuery.isError && (
        <LoadFailed text={ScheduleMessages.loadFailed} query={listQuery} className="schedule-page__error" />
      )}

      {listQuery.isPending ? (
        <div className="schedule-page__state">
          <Spinner label="Loading articles" />
          <span>Loading articles...</span>
        </div>
      ) : articles && articles.length === 0 ? (
        <div className="card schedule-page__empty">
          <p>{ScheduleMessages.empty}</p>
          {createButton}
        </div>
      ) : articles ? (
        <ul className="schedule-list" aria-label="Unpublished articles">
          {articles.map((article) => (
            <li key={articleIdOf(article)}>
              <ArticleCard
                article={article}
                now={now}
                timeZone={timeZone}
                onPublish={(a, platform, channel) => setTarget({ article: a, platform, channel })}
                onSchedule={(a, platforms) => setScheduling({ article: a, platforms })}
                footer={
                  finishedIds.has(articleIdOf(article)) ? (
                    <p className="schedule-card__done">
                      {ScheduleMessages.publishedEverywhere} <Link to="/history">{ScheduleMessages.toHistory}</Link>
                    </p>
                  ) : undefined
                }
              />
            </li>
          ))}
        </ul>
      ) : null}

      {shownScheduling && (
        <Suspense fallback={null}>
          <ScheduleModal
            article={shownScheduling.article}
            platforms={shownScheduling.platforms}
            timeZone={timeZone}
            onClose={() => {
              setScheduling(null);
              if (asked) setParams({}, { replace: true });
            }}
          />
        </Suspense>
      )}

      {target && (
        <PublishConfirmModal
          article={target.article}
          platform={target.platform}
          channel={target.channel}
          onClose={() => setTarget(null)}
          onPublished={onPublished}
          onFailed={() => void refreshArticleLists(queryClient)}
        />
      )}
    </div>
  );
}
