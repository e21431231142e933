import { Suspense, useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isPlatform, type Article, type Platform, type VersionId } from '@app/shared';
import { CHANNEL_REGISTRY, ownVersionChannels } from '../../channels/registry';
import type { RegisteredChannel } from '../../channels/types';
import { AlsoPreviews } from '../../channels/also';
import { errorText, request } from '../../api/client';
import { useInlineNotice } from '../../hooks/useInlineNotice';
import { useCan } from '../../hooks/useWorkspaces';
import { timing } from '../../lib/timing';
import { InlineNotice } from '../InlineNotice';
import { Modal } from '../Modal';
import { ButtonSpinner, Spinner } from '../Spinner';
import { articleIdOf, articleQueryKey, CreateMessages, fetchArticle } from './articleQuery';
import { ActivityList } from './ActivityList';
import { CommentThread } from './CommentThread';
import { ContentEditor } from './ContentEditor';
import { ImageStep } from './ImageStep';
import { useContentDraft, type ContentDraft } from './useContentDraft';
import '../../styles/create.css';

type Step = 'content' | 'image';

const STEPS: { id: Step; label: string }[] = [
  { id: 'content', label: 'Content' },
  { id: 'image', label: 'Image' },
];

interface GeneratedContentModalProps {
  articleId: string;
  onClose: () => void;
  /**
   * After the image step: the page takes the user to /schedule; with a version (a channel's own version's Schedule
   * action), to its Schedule modal there.
   */
  onFinish: (version?: VersionId) => void;
}

/**
 * The generated-content modal (docs/product.md, Create): step 1 reviews and edits the blog and LinkedIn
 * drafts (written in the background, polled until done), each beside a preview of what publishing sends and
 * the members' comments on it, with the article's activity below; step 2 generates the image.
 */
export function GeneratedContentModal({ articleId, onClose, onFinish }: GeneratedContentModalProps) {
  const articleQuery = useQuery({
    queryKey: articleQueryKey(articleId),
    queryFn: () => fetchArticle(articleId),
    staleTime: 0,
    retry: false,
    refetchInterval: (query) => (query.state.data?.generation?.status === 'pending' ? timing.articlePollMs : false),
  });
  const article = articleQuery.data;
  const queryClient = useQueryClient();
  const id = article ? articleIdOf(article) : articleId;
  const [step, setStep] = useState<Step>('content');
  const [imageVisited, setImageVisited] = useState(false);
  const { notice, show } = useInlineNotice();
  // A reviewer reads the drafts and the image: no editing, drafting again or image controls (docs/product.md, Workspaces).
  const may = useCan();
  const locked = !may('articles.updateBlog');
  const maySchedule = may('schedule.set');
  const blog = useContentDraft(id, 'blog', article?.blog?.content);
  const linkedin = useContentDraft(id, 'linkedin', article?.linkedin?.content);
  const drafts: Record<Platform, ContentDraft> = { blog, linkedin };
  // The saves of the channels' own texts (OwnVersionPair below), by channel id.
  const [ownSaves] = useState(() => new Map<string, () => Promise<boolean>>());

  const retry = useMutation({
    mutationFn: () => request('articles.retryGeneration', { params: { id } }),
    onSuccess: ({ article: restarted }) => queryClient.setQueryData<Article>(articleQueryKey(id), restarted),
  });
  /** Saves whatever was typed; false when something could not be saved. */
  const flush = async () =>
    (await Promise.all([blog.save(), linkedin.save(), ...[...ownSaves.values()].map((save) => save())])).every(Boolean);
  // Closing or going on to Schedule saves first.
  const leave = useMutation({ mutationFn: flush });
  const retrying = retry.isPending;
  const leaving = leave.isPending;

  if (!article) {
    return (
      <Modal title="Generated Content" onClose={onClose} size="xl" className="content-modal">
        {articleQuery.isError ? (
          <>
            <div className="alert alert--error" role="alert">
              Error: {errorText(articleQuery.error, CreateMessages.fetchFailed)}
            </div>
            <div className="modal__footer">
              <button type="button" className="btn btn--secondary" onClick={onClose}>
                Close window
              </button>
            </div>
          </>
        ) : (
          <div className="generation-state generation-state--large">
            <Spinner label="Loading article" />
            <span>Loading article...</span>
          </div>
        )}
      </Modal>
    );
  }

  const status = article.generation?.status ?? 'done';
  const drafting = status === 'pending';

  const goToImage = async () => {
    if (!(await flush())) return;
    setImageVisited(true);
    setStep('image');
  };

  const close = () => {
    if (leaving) return;
    leave.mutate(undefined, {
      onSuccess: (saved) => {
        if (saved || window.confirm('Some changes could not be saved. Close anyway and lose them?')) onClose();
      },
    });
  };

  const finish = () => leave.mutate(undefined, { onSuccess: (saved) => saved && onFinish() });
  // A channel's own version scheduled from its editor: everything saved first, as Continue to Schedule does.
  const scheduleVersion = (version: VersionId) =>
    leave.mutate(undefined, { onSuccess: (saved) => saved && onFinish(version) });

  const failure = status === 'failed' ? article.lastError : null;
  const failureText =
    status !== 'failed'
      ? ''
      : failure?.code === 'insufficient_quota'
        ? CreateMessages.quota
        : failure?.message || CreateMessages.draftingFailed;

  return (
    <Modal title="Generated Content" subtitle={article.title} onClose={close} size="xl" className="content-modal">
      {/* The notice floats (beside the steps, or at the top of the scrolled view): it never moves the editors. */}
      <div className="content-modal__notice-anchor">
        <div className="content-modal__notice-layer">
          <InlineNotice notice={notice} />
        </div>
      </div>
      <ol className="steps" aria-label="Steps">
        {STEPS.map((item, index) => (
          <li
            key={item.id}
            className={`steps__item${step === item.id ? ' is-current' : ''}${index === 0 && step === 'image' ? ' is-done' : ''}`}
            aria-current={step === item.id ? 'step' : undefined}
          >
            <span className="steps__number" aria-hidden="true">
              {index + 1}
            </span>
            {item.label}
          </li>
        ))}
      </ol>

      <div hidden={step !== 'content'} className="content-step">
        {drafting ? (
          <div className="generation-state generation-state--large" role="status">
            <Spinner size="lg" label="Drafting" />
            <div>
              <p className="generation-state__title">Drafting your blog article and LinkedIn post…</p>
              <p className="muted">
                This usually takes a few seconds. You can close this window: drafting continues and the article waits on
                the Schedule page.
              </p>
            </div>
          </div>
        ) : (
          <>
            {status === 'failed' && (
              <div className="alert alert--error generation-failed" role="alert">
                <span>{failureText}</span>
                {!locked && (
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    disabled={retrying}
                    onClick={() => retry.mutate()}
                  >
                    {retrying ? (
                      <>
                        <ButtonSpinner /> Retrying...
                      </>
                    ) : (
                      'Retry'
                    )}
                  </button>
                )}
              </div>
            )}
            {retry.error && (
              <div className="alert alert--error" role="alert">
                {errorText(retry.error, CreateMessages.retryFailed)}
              </div>
            )}
            <div className="editors">
              {/* Each channel's version: its editor, its preview (a chunk of its own, loaded with the content step,
                  not with the page: the blog's brings the Markdown renderer and sanitizer) and its comments. */}
              {CHANNEL_REGISTRY.filter(
                // The editors of the versions in PLATFORMS; the channels' own versions have theirs below.
                (channel): channel is RegisteredChannel & { version: Platform } =>
                  !channel.also && isPlatform(channel.version),
              ).map(({ id: channelId, version, texts, Preview }) => (
                <div key={channelId} className="editor-pair">
                  <ContentEditor
                    articleId={id}
                    title={texts.editorTitle}
                    draft={drafts[version]}
                    locked={locked}
                    onEdited={(text) => show('success', text)}
                  />
                  {/* The version's preview, then those of its other connected channels (channels/also.tsx). */}
                  <div className="editor-pair__previews">
                    <Suspense fallback={null}>
                      <Preview
                        articleId={id}
                        title={article.title}
                        content={drafts[version].text}
                        image={article.image}
                        postingMode={article.linkedInMode}
                      />
                    </Suspense>
                    <AlsoPreviews
                      version={version}
                      articleId={id}
                      title={article.title}
                      content={drafts[version].text}
                      image={article.image}
                    />
                  </div>
                  <CommentThread articleId={id} platform={version} version={article.updatedAt} />
                </div>
              ))}
              {ownVersionChannels().map((channel) => (
                <OwnVersionPair
                  key={channel.id}
                  channel={channel}
                  article={article}
                  articleId={id}
                  locked={locked}
                  saves={ownSaves}
                  onSchedule={maySchedule && !leaving ? () => scheduleVersion(channel.version) : undefined}
                />
              ))}
            </div>
          </>
        )}
        <ActivityList articleId={id} version={article.updatedAt} />
        <div className="modal__footer">
          <p className="modal__footer-start muted modal__footer-note">
            {locked ? CreateMessages.readOnly : 'Changes are saved as you go.'}
          </p>
          <button type="button" className="btn btn--primary" onClick={() => void goToImage()}>
            Next
          </button>
        </div>
      </div>

      {imageVisited && (
        <div hidden={step !== 'image'} className="content-step">
          <ImageStep article={article} locked={locked} onGenerated={(text) => show('success', text)} />
          <div className="modal__footer">
            <button type="button" className="btn btn--secondary modal__footer-start" onClick={() => setStep('content')}>
              Back
            </button>
            <button type="button" className="btn btn--primary" disabled={leaving} onClick={finish}>
              Continue to Schedule
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}

interface OwnVersionPairProps {
  channel: RegisteredChannel;
  article: Article;
  articleId: string;
  locked: boolean;
  /** Where its save is kept while it is shown, for Next and closing to save everything first. */
  saves: Map<string, () => Promise<boolean>>;
  /** Its own Schedule action (absent: the role may not schedule): to its Schedule modal on /schedule. */
  onSchedule?: () => void;
}

/**
 * The editor, preview and comments of a channel with a text of its own (channels/types.ts, ownVersion), shown while it is
 * connected or once the article has its text (written before a disconnect, or drafted).
 */
function OwnVersionPair({ channel, article, articleId, locked, saves, onSchedule }: OwnVersionPairProps) {
  const saved = article.versions?.[channel.id]?.content;
  const draft = useContentDraft(articleId, channel.id, saved);
  const connected = useQuery(channel.ownVersion!.connected).data === true;
  const shown = connected || saved !== undefined;
  const { save } = draft;
  useEffect(() => {
    if (!shown) return;
    saves.set(channel.id, save);
    return () => void saves.delete(channel.id);
  }, [shown, saves, channel.id, save]);
  if (!shown) return null;
  const { Preview } = channel;
  return (
    <div className={`editor-pair editor-pair--${channel.id}`}>
      <ContentEditor articleId={articleId} title={channel.texts.editorTitle} draft={draft} locked={locked} />
      <div className="editor-pair__previews">
        <Suspense fallback={null}>
          <Preview articleId={articleId} title={article.title} content={draft.text} image={article.image} />
        </Suspense>
        {onSchedule && (
          <button
            type="button"
            className="btn btn--secondary btn--sm editor-pair__schedule"
            aria-haspopup="dialog"
            onClick={onSchedule}
          >
            {article.scheduled?.[channel.version] ? 'Reschedule' : 'Schedule'}
            <span className="sr-only"> {channel.versionLabel}</span>
          </button>
        )}
      </div>
      <CommentThread articleId={articleId} platform={channel.id} version={article.updatedAt} />
    </div>
  );
}
