import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  REVIEW_COMMENT_MAX,
  ROLE_NAMES,
  ReviewMessages,
  stageRoles,
  stagesOf,
  type Article,
  versionText,
  type VersionId,
  type ReviewSettings,
} from '@app/shared';
import type { JsonRouteId } from '@app/shared/api';
import { errorText, request } from '../../api/client';
import { channelFor } from '../../channels/registry';
import { refreshArticleLists } from '../../hooks/useArticleLists';
import { useSession } from '../../hooks/useSession';
import { useCan, useCurrentWorkspace } from '../../hooks/useWorkspaces';
import { BusyButton } from '../Spinner';
import { articleIdOf } from '../create/articleQuery';

type ReviewAction = 'submit' | 'approve' | 'changes';

/** Each action's route: all name the version, and Request changes also says what should change. */
const ACTION_ROUTES = {
  submit: 'approvals.submit',
  approve: 'approvals.approve',
  changes: 'approvals.requestChanges',
} as const satisfies Record<ReviewAction, JsonRouteId>;

function sendReviewAction(action: ReviewAction, id: string, platform: VersionId, comment: string) {
  const params = { id };
  if (action === 'changes') return request(ACTION_ROUTES[action], { params, body: { platform, comment } });
  return request(ACTION_ROUTES[action], { params, body: { platform } });
}

interface ReviewActionsProps {
  article: Article;
  platform: VersionId;
  settings: ReviewSettings;
}

/**
 * A version's review on its Schedule card (docs/product.md, Workspaces, Review): where it stands, and what the
 * signed-in member may do: submit it (writer and up), or approve / request changes (a role of the current stage,
 * never one of its authors). The server decides again; its refusal is shown as it says it.
 */
export function ReviewActions({ article, platform, settings }: ReviewActionsProps) {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { role } = useCurrentWorkspace();
  const may = useCan();
  const commentId = useId();
  const [asking, setAsking] = useState(false);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = articleIdOf(article);
  const review = article.review?.[platform] ?? null;
  const act = useMutation({
    mutationFn: (action: ReviewAction) => sendReviewAction(action, id, platform, comment),
    onSuccess: () => {
      setError(null);
      setAsking(false);
      setComment('');
      void refreshArticleLists(queryClient);
    },
    onError: (err) => setError(errorText(err, 'The review could not be saved. Try again.')),
  });
  if (settings.mode === 'author') return null;
  const published = channelFor(platform).posted(article);
  if (published) return null;

  const mine = Boolean(user && review?.authors.includes(user._id));
  // Who may call the route is the route table's (useCan); which roles approve a stage is the workspace's review
  // setting (shared/src/review.ts).
  const canApprove =
    review?.status === 'pending' &&
    !mine &&
    may('approvals.approve') &&
    may('approvals.requestChanges') &&
    stageRoles(review.mode, review.stage).includes(role);
  const canSubmit =
    may('approvals.submit') && (!review || review.status === 'changes') && versionText(article, platform).trim() !== '';
  const stages = review ? stagesOf(review.mode) : stagesOf(settings.mode as 'one' | 'two');
  const state = !review
    ? 'Not submitted for review'
    : review.status === 'approved'
      ? 'Approved'
      : review.status === 'changes'
        ? 'Changes requested'
        : stages === 2
          ? `In review: stage ${review.stage} of 2 (${review.stage === 1 ? 'an editor or reviewer' : 'an owner'})`
          : 'In review';

  return (
    <div className="review-actions">
      <p className="review-actions__state">
        <strong>{state}</strong>
        {review?.status === 'pending' && mine && <span className="muted"> · someone else approves it</span>}
      </p>
      {review?.status === 'changes' && review.changes && (
        <blockquote className="review-actions__comment">
          <p>{review.changes.comment}</p>
        </blockquote>
      )}
      {error && (
        <p className="alert alert--error review-actions__error" role="alert">
          {error}
        </p>
      )}
      <div className="platform-row__actions">
        {canSubmit && (
          <BusyButton
            type="button"
            className="btn btn--secondary btn--sm"
            busy={act.isPending && act.variables === 'submit'}
            label="Submit for review"
            busyLabel="Submitting..."
            onClick={() => act.mutate('submit')}
          />
        )}
        {canApprove && !asking && (
          <>
            <BusyButton
              type="button"
              className="btn btn--primary btn--sm"
              busy={act.isPending && act.variables === 'approve'}
              label="Approve"
              busyLabel="Approving..."
              onClick={() => act.mutate('approve')}
            />
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => setAsking(true)}>
              Request changes
            </button>
          </>
        )}
      </div>
      {canApprove && asking && (
        <form
          className="review-actions__form"
          onSubmit={(event) => {
            event.preventDefault();
            if (!comment.trim()) return setError('Say what should change: the comment is required');
            act.mutate('changes');
          }}
        >
          <label htmlFor={commentId}>What should change?</label>
          <textarea
            id={commentId}
            className="input"
            rows={3}
            maxLength={REVIEW_COMMENT_MAX}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
          <div className="platform-row__actions">
            <BusyButton
              className="btn btn--primary btn--sm"
              type="submit"
              busy={act.isPending}
              label="Send request"
              busyLabel="Sending..."
            />
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {review?.status === 'pending' && !canApprove && !mine && (
        <p className="muted review-actions__who">
          Approved by{' '}
          {stageRoles(review.mode, review.stage)
            .map((r) => ROLE_NAMES[r])
            .join(', ')}
        </p>
      )}
    </div>
  );
}

export const reviewBadge = { waiting: ReviewMessages.waiting, expired: ReviewMessages.expired } as const;
