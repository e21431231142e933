import { useId } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  COMMENT_MAX_CHARS,
  NewCommentSchema,
  type ArticleComment,
  type NewCommentInput,
  isPlatform,
  type VersionId,
} from '@app/shared';
import type { CommentsAnswer } from '@app/shared/api';
import { errorText, request } from '../../api/client';
import { channelById, channelFor } from '../../channels/registry';
import { useSession } from '../../hooks/useSession';
import { firstError, useZodForm } from '../../lib/form';
import { timing } from '../../lib/timing';
import { formatDateTime, useUserTimeZone } from '../../lib/userTime';
import { BusyButton } from '../Spinner';
import * as z from 'zod/mini';

/** Both threads of an article come with one call; `version` (the article's updatedAt) refreshes the earlier-version marks. */
export const commentsQueryKey = (articleId: string) => ['comments', articleId] as const;

export const CommentTexts = {
  loadFailed: 'The comments could not be loaded.',
  sendFailed: 'The comment could not be saved.',
  deleteFailed: 'The comment could not be deleted.',
  earlier: 'on an earlier version',
  changeRequest: 'Requested changes',
  none: 'No comments yet.',
} as const;

interface CommentThreadProps {
  articleId: string;
  /** The version: one of PLATFORMS, or a channel's own (its id). */
  platform: VersionId;
  /** The article's updatedAt: when it moves, the thread is read again (a comment's version may be an earlier one now). */
  version?: string;
}

/**
 * The comments on one version of the article, beside its text (docs/product.md, Comments and activity): each
 * with its author, time and text, marked when made on an earlier text; a form to add one (the shared schema's
 * limits), and Delete on one's own.
 */
export function CommentThread({ articleId, platform, version }: CommentThreadProps) {
  const uid = useId();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const timeZone = useUserTimeZone();
  const thread = useQuery({
    queryKey: [...commentsQueryKey(articleId), version ?? ''],
    queryFn: ({ signal }) => request('articles.comments', { params: { id: articleId } }, { signal }),
    enabled: Boolean(articleId),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // Other members comment meanwhile: read again while the editor is open (not while the tab is hidden, the
    // query's default) and on coming back to the tab.
    refetchInterval: timing.commentsRefreshMs,
    refetchOnWindowFocus: true,
  });
  const comments = (thread.data?.comments ?? []).filter((c) => c.platform === platform);
  const setComments = (change: (all: ArticleComment[]) => ArticleComment[]) =>
    queryClient.setQueriesData<CommentsAnswer>({ queryKey: commentsQueryKey(articleId) }, (data) =>
      data ? { comments: change(data.comments) } : data,
    );

  const form = useZodForm(
    z.pipe(
      z.pipe(
        z.object({ text: z.string() }),
        z.transform(({ text }): NewCommentInput => ({ platform, text })),
      ),
      NewCommentSchema(),
    ),
    { text: '' },
  );
  const add = useMutation({
    mutationFn: (body: NewCommentInput) => request('articles.addComment', { params: { id: articleId }, body }),
    onSuccess: ({ comment }) => {
      setComments((all) => [...all, comment]);
      form.reset();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => request('articles.deleteComment', { params: { id: articleId, commentId: id } }),
    onSuccess: (_answer, id) => setComments((all) => all.filter((c) => c.id !== id)),
  });

  const text = form.watch('text') ?? '';
  const problem =
    firstError(form.formState.errors, ['text', 'platform']) ??
    (add.error ? errorText(add.error, CommentTexts.sendFailed) : '');
  const ids = { title: `${uid}-title`, input: `${uid}-input`, error: `${uid}-error`, count: `${uid}-count` };

  return (
    <section className="comments" aria-labelledby={ids.title} data-platform={platform}>
      <h4 id={ids.title} className="comments__title">
        {(isPlatform(platform) ? channelFor(platform) : channelById(platform))?.texts.commentsTitle}
        {comments.length > 0 && <span className="badge">{comments.length}</span>}
      </h4>
      {thread.isError && !thread.data ? (
        <p className="field__error">{errorText(thread.error, CommentTexts.loadFailed)}</p>
      ) : comments.length === 0 ? (
        <p className="muted comments__empty">{thread.isPending ? 'Loading comments…' : CommentTexts.none}</p>
      ) : (
        <ol className="comments__list">
          {comments.map((comment) => (
            <li
              key={comment.id}
              className={`comment${comment.onEarlierVersion ? ' comment--earlier' : ''}${comment.changeRequest ? ' comment--changes' : ''}`}
            >
              <div className="comment__meta">
                <span className="comment__author">{comment.authorName}</span>
                <time className="comment__time" dateTime={comment.createdAt}>
                  {formatDateTime(comment.createdAt, timeZone)}
                </time>
                {comment.changeRequest && <span className="badge badge--accent">{CommentTexts.changeRequest}</span>}
                {comment.onEarlierVersion && <span className="badge comment__earlier">{CommentTexts.earlier}</span>}
              </div>
              <p className="comment__text">{comment.text}</p>
              {user && comment.authorId === user._id && (
                <button
                  type="button"
                  className="btn btn--ghost btn--sm comment__delete"
                  disabled={remove.isPending && remove.variables === comment.id}
                  aria-label={`Delete your comment from ${formatDateTime(comment.createdAt, timeZone)}`}
                  onClick={() => remove.mutate(comment.id)}
                >
                  Delete
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {remove.error && (
        <p className="field__error" role="alert">
          {errorText(remove.error, CommentTexts.deleteFailed)}
        </p>
      )}
      <form
        className="comments__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (add.isPending) return;
          add.reset();
          void form.handleSubmit((input) => add.mutate(input))(event);
        }}
      >
        <label className="field__label" htmlFor={ids.input}>
          Add a comment
        </label>
        <textarea
          {...form.register('text', { onChange: () => add.reset() })}
          id={ids.input}
          className={`input textarea comments__input${problem ? ' input--invalid' : ''}`}
          rows={2}
          placeholder="Write a comment…"
          aria-invalid={problem ? true : undefined}
          aria-describedby={[ids.count, problem ? ids.error : ''].filter(Boolean).join(' ')}
        />
        <div className="comments__actions">
          <span id={ids.count} className={`comments__count${text.length > COMMENT_MAX_CHARS ? ' is-over' : ''}`}>
            {text.length} / {COMMENT_MAX_CHARS}
          </span>
          <BusyButton
            type="submit"
            className="btn btn--secondary btn--sm"
            busy={add.isPending}
            disabled={add.isPending}
            label="Comment"
            busyLabel="Saving..."
          />
        </div>
        {problem && (
          <p id={ids.error} className="field__error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </section>
  );
}
