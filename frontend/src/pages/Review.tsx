import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { REVIEW_COMMENT_MAX, approvalTimeText } from '@app/shared';
import type { ReviewLinkPreview } from '@app/shared/api';
import { errorText, request, routeUrl } from '../api/client';
import { channelFor } from '../channels/registry';
import { Logo } from '../components/Logo';
import { LinkPostPreview } from '../components/review/LinkPostPreview';
import { useLinkPreview } from '../hooks/useLinkPreview';
import { useTheme } from '../hooks/useTheme';
import '../styles/welcome.css';
import '../styles/approve.css';

/**
 * The page behind a reviewer's e-mailed link (docs/product.md, Workspaces, Review). Opening it only shows the
 * version (mail scanners prefetch links); the link's one action needs the click below, and "Request changes"
 * its comment. The signed token is bound to the reviewer, so it works without being logged in.
 */
export default function Review() {
  const { theme } = useTheme();
  const commentId = useId();
  const { token, preview, error } = useLinkPreview(
    'review-preview',
    (token): Promise<ReviewLinkPreview> => request('approvals.reviewPreview', { body: { token } }),
    {
      incomplete: 'This review link is incomplete. Open the article in the app instead.',
      failed: 'Failed to load the review. Try the link again.',
    },
  );
  const [comment, setComment] = useState('');
  const [missing, setMissing] = useState(false);
  const confirm = useMutation({
    mutationFn: () =>
      request('approvals.reviewConfirm', {
        body: { token, ...(preview?.action === 'changes' ? { comment } : {}) },
      }),
  });
  const busy = confirm.isPending;
  const failure = confirm.error ? errorText(confirm.error, 'The review could not be saved. Try again.') : '';
  const changes = preview?.action === 'changes';
  const platform = preview ? channelFor(preview.platform).label : '';

  return (
    <div className="welcome approve-page">
      <main className="welcome__main approve">
        <section className="welcome-card" aria-labelledby="review-title">
          <Logo variant={theme} className="welcome-card__logo" />
          <p className="welcome-card__eyebrow">Review{preview ? ` · ${preview.workspaceName}` : ''}</p>
          <h1 id="review-title" className="welcome-card__title">
            {!preview
              ? 'Review'
              : changes
                ? `Request changes to “${preview.title}”`
                : `Approve “${preview.title}” for ${platform}?`}
          </h1>
          {!preview && !error && <p className="welcome-card__lead">Loading…</p>}
          {error && (
            <p role="alert" className="alert alert--error">
              {error}
            </p>
          )}
          {preview && !confirm.data && (
            <>
              <p className="welcome-card__lead">
                {preview.stages === 2 ? `Stage ${preview.stage} of 2. ` : ''}
                {preview.scheduledFor ? (
                  <>
                    Scheduled for <strong>{approvalTimeText(new Date(preview.scheduledFor), preview.timeZone)}</strong>.
                  </>
                ) : (
                  'Not scheduled yet.'
                )}
                {!preview.current && ' This link is for an earlier state of this version: open the app to see it now.'}
              </p>
              <LinkPostPreview
                {...preview}
                imageUrl={
                  preview.image
                    ? routeUrl('approvals.reviewImage', {
                        query: { token, t: preview.image.generatedAt || undefined },
                      })
                    : ''
                }
              />
              <form
                className="approve__decision"
                noValidate
                onSubmit={(event) => {
                  event.preventDefault();
                  if (changes && !comment.trim()) return setMissing(true);
                  confirm.mutate();
                }}
              >
                {failure && (
                  <p role="alert" className="alert alert--error">
                    {failure}
                  </p>
                )}
                {changes && (
                  <div className="field">
                    <label htmlFor={commentId} className="field__label">
                      What should change?
                    </label>
                    <textarea
                      id={commentId}
                      className="input review-page__comment"
                      rows={4}
                      maxLength={REVIEW_COMMENT_MAX}
                      value={comment}
                      aria-invalid={missing || undefined}
                      aria-describedby={missing ? `${commentId}-error` : undefined}
                      onChange={(event) => {
                        setComment(event.target.value);
                        setMissing(false);
                      }}
                    />
                    {missing && (
                      <p id={`${commentId}-error`} className="field__error" role="alert">
                        Say what should change: the comment is required
                      </p>
                    )}
                  </div>
                )}
                <div className="welcome-card__actions">
                  <button type="submit" className="btn btn--primary btn--lg" disabled={busy || !preview.current}>
                    {busy ? 'Saving...' : changes ? 'Request changes' : 'Approve'}
                  </button>
                  <Link className="btn btn--secondary btn--lg" to="/schedule">
                    Open the app
                  </Link>
                </div>
              </form>
            </>
          )}
          {confirm.data && (
            <p role="status" className="welcome-card__lead">
              {confirm.data.message}. <Link to="/schedule">Open the Schedule page</Link>
            </p>
          )}
        </section>
      </main>
    </div>
  );
}
