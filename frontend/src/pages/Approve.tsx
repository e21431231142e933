import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { approvalTimeText, httpUrlOrNull, listText } from '@app/shared';
import { channelFor } from '../channels/registry';
import type { ApprovalChannel, ApprovalPreview } from '@app/shared/api';
import type { PreviewLinkCard } from '../channels/types';
import { errorText, request, routeUrl } from '../api/client';
import { Logo } from '../components/Logo';
import { LinkPostPreview } from '../components/review/LinkPostPreview';
import { useLinkPreview } from '../hooks/useLinkPreview';
import { useTheme } from '../hooks/useTheme';
import '../styles/welcome.css';
import '../styles/approve.css';

/**
 * What will be published; signed in or not, the image comes by the link's token, the post's author with the answer.
 * A post that goes to several channels (`goesTo`: the version's, e.g. two blogs) is shown once, saying where.
 */
function PostPreview({
  preview,
  imageUrl,
  goesTo,
}: {
  preview: ApprovalPreview;
  imageUrl: string;
  goesTo: readonly ApprovalChannel[];
}) {
  // The version's own channel's preview; when it does not publish this time (a second blog alone), the one that does.
  const own = goesTo.some((c) => c.channel === channelFor(preview.platform).id);
  const shownChannel = own ? undefined : goesTo[0]?.channel;
  return (
    <>
      {goesTo.length > 1 && (
        <p className="approve__goes-to">{APPROVE_TEXTS.goesTo(listText(goesTo.map((c) => c.label)))}</p>
      )}
      <LinkPostPreview {...preview} imageUrl={imageUrl} channel={shownChannel} />
    </>
  );
}

/**
 * A blog-first bundle's social posts, each as its channel's preview shows it. They carry the blog post as a link card
 * (the channel's own: title, picture, and where it links): once the blog post is live (a retry after a social post
 * failed), the card leads to it, as the post will; before, it says where it will lead.
 */
function SocialPostPreviews({
  preview,
  social,
  imageUrl,
}: {
  preview: ApprovalPreview;
  social: readonly ApprovalChannel[];
  imageUrl: string;
}) {
  const blogPost = preview.channels.find((c) => !c.social && c.postUrl)?.postUrl;
  const linkCard: PreviewLinkCard = blogPost
    ? { title: preview.title, site: new URL(blogPost).hostname, href: blogPost }
    : { title: preview.title, site: APPROVE_TEXTS.blogAddressPending };
  return (
    <div className="approve__others">
      {social.map((channel) => (
        <div key={channel.channel} className="approve__channel">
          <LinkPostPreview
            {...preview}
            channel={channel.channel}
            content={channel.content}
            imageUrl={imageUrl}
            linkCard={linkCard}
          />
        </div>
      ))}
    </div>
  );
}

/** The page's own words. */
const APPROVE_TEXTS = {
  /** Where a bundle's link card leads: the blog post's address is known once it is published. */
  blogAddressPending: 'The blog post’s address, once it is live',
  /** Over a post several channels publish (the blog post on two blog channels). */
  goesTo: (labels: string) => `Goes to ${labels}.`,
  /** The button once some channels have their post: it sends only to the others. */
  retry: (labels: string) => `Retry ${labels}`,
} as const;

/**
 * The page behind the approve link of the scheduled-run e-mail. Opening it only shows what would
 * be published (mail scanners prefetch links); publishing needs the explicit confirmation below.
 * The signed token in the link is the authorization, so it works without being logged in. The
 * time is the owner's, in the owner's zone and named, wherever the link is opened.
 */
export default function Approve() {
  const { theme } = useTheme();
  const { token, preview, error } = useLinkPreview(
    'approval-preview',
    async (token): Promise<ApprovalPreview> => {
      const answer = await request('approvals.preview', { body: { token } });
      // A post address only ever becomes an href when it is http(s).
      return {
        ...answer,
        postUrl: httpUrlOrNull(answer.postUrl),
        channels: answer.channels.map((c) => ({ ...c, postUrl: httpUrlOrNull(c.postUrl) })),
      };
    },
    {
      incomplete: 'This approval link is incomplete. Open the article on the Schedule page instead.',
      failed: 'Failed to load the approval. Try the link again.',
    },
  );

  const confirm = useMutation({ mutationFn: () => request('approvals.confirm', { body: { token } }) });
  const busy = confirm.isPending;
  // A post address only ever becomes an href when it is http(s).
  const done = confirm.data
    ? {
        postUrl: httpUrlOrNull(confirm.data.postUrl),
        channels: (confirm.data.channels ?? []).map((c) => ({ ...c, postUrl: httpUrlOrNull(c.postUrl) })),
      }
    : null;
  const failed = 'Publishing failed. Your content is kept; try again from the Schedule page.';
  const publishFailure = confirm.error ? errorText(confirm.error, failed) : '';

  // The version's channels when it goes to several (two blog channels), else its channel as ever.
  const channels = preview?.channels ?? [];
  const platform = !preview
    ? ''
    : channels.length > 1
      ? listText(channels.map((c) => c.label))
      : channelFor(preview.platform).label;
  // The version's channels publish the same post (the blog post on a second blog too): shown once, saying where it
  // goes. A bundle's social posts are shown beside it, each as its channel's preview.
  // The version's image, by the link's token (a signed-out browser has no session for /api/image).
  const imageUrl = preview?.image
    ? routeUrl('approvals.image', { query: { token, t: preview.image.generatedAt || undefined } })
    : '';
  const sharing = channels.filter((c) => !c.social);
  const others = channels.filter((c) => c.social);
  // After a partial failure the link sends only to the channels without a post: the button says which.
  const pending = channels.filter((c) => !c.published);
  const retrying = pending.length > 0 && pending.length < channels.length;
  return (
    <div className="welcome approve-page">
      <main className={`welcome__main approve${others.length ? ' approve--channels' : ''}`}>
        <section className="welcome-card" aria-labelledby="approve-title">
          <Logo variant={theme} className="welcome-card__logo" />
          <p className="welcome-card__eyebrow">Approval</p>
          <h1 id="approve-title" className="welcome-card__title">
            {preview ? `Publish “${preview.title}” to ${platform}?` : 'Approve publication'}
          </h1>
          {!preview && !error && <p className="welcome-card__lead">Loading…</p>}
          {error && (
            <p role="alert" className="alert alert--error">
              {error}
            </p>
          )}
          {preview && !done && (
            <>
              <p className="welcome-card__lead">
                Scheduled for <strong>{approvalTimeText(new Date(preview.scheduledFor), preview.timeZone)}</strong>.
                {!preview.current && ' This link is for an earlier schedule of this article.'}
              </p>
              {others.length ? (
                <div className="approve__previews">
                  <div className="approve__own">
                    <PostPreview preview={preview} imageUrl={imageUrl} goesTo={sharing} />
                  </div>
                  <SocialPostPreviews preview={preview} social={others} imageUrl={imageUrl} />
                </div>
              ) : (
                <PostPreview preview={preview} imageUrl={imageUrl} goesTo={sharing} />
              )}
              {preview.published ? (
                <p className="welcome-card__lead">
                  Already published.{' '}
                  {preview.postUrl && (
                    <a href={preview.postUrl} target="_blank" rel="noopener noreferrer">
                      View the post
                    </a>
                  )}
                </p>
              ) : (
                // Stays at the bottom of the window while the post is read; a failed publish is told here, by the button.
                <div className="approve__decision">
                  {publishFailure && (
                    <p role="alert" className="alert alert--error">
                      {publishFailure}
                    </p>
                  )}
                  <div className="welcome-card__actions">
                    <button
                      type="button"
                      className="btn btn--primary btn--lg"
                      onClick={() => confirm.mutate()}
                      disabled={busy || !preview.current}
                    >
                      {busy
                        ? 'Publishing...'
                        : retrying
                          ? APPROVE_TEXTS.retry(listText(pending.map((c) => c.label)))
                          : `Approve and publish to ${platform}`}
                    </button>
                    <Link className="btn btn--secondary btn--lg" to="/schedule">
                      Review first
                    </Link>
                  </div>
                </div>
              )}
            </>
          )}
          {done && (
            <p role="status" className="welcome-card__lead">
              Published to {platform}.{' '}
              {done.channels.length > 1
                ? done.channels.map(
                    (c) =>
                      c.postUrl && (
                        <span key={c.channel}>
                          <a href={c.postUrl} target="_blank" rel="noopener noreferrer">
                            View on {c.label}
                          </a>{' '}
                        </span>
                      ),
                  )
                : done.postUrl && (
                    <a href={done.postUrl} target="_blank" rel="noopener noreferrer">
                      View the post
                    </a>
                  )}
            </p>
          )}
        </section>
      </main>
    </div>
  );
}
