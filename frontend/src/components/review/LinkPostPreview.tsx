import { Suspense } from 'react';
import type { VersionId } from '@app/shared';
import type { ApprovalLinkedInAuthor } from '@app/shared/api';
import { channelById, channelFor } from '../../channels/registry';
import type { PreviewLinkCard } from '../../channels/types';

export interface LinkPostPreviewProps {
  /** The version: one of PLATFORMS or a channel's own (its channel's preview). */
  platform: VersionId;
  title: string;
  content: string;
  image: { generatedAt: string; description: string } | null;
  /** Where the picture is read by the e-mailed link's token (signed in or not); '' when there is none. */
  imageUrl: string;
  /** LinkedIn: who the post goes out as (the neutral author when not known). */
  linkedIn?: ApprovalLinkedInAuthor | null;
  /** Another channel than the version's own (its registry id): its preview of `content`. */
  channel?: string;
  /** The link card the post carries (a bundle's social post: the blog post's), drawn by the channel's preview. */
  linkCard?: PreviewLinkCard;
}

/**
 * What will be published, as the editor previews it (the channel's preview, fetched with the page's answer), on the
 * pages behind an e-mailed link: the owner's approval (/approve) and a reviewer's (/review).
 */
export function LinkPostPreview({
  platform,
  title,
  content,
  image,
  imageUrl,
  linkedIn,
  channel,
  linkCard,
}: LinkPostPreviewProps) {
  const { Preview } = (channel !== undefined && channelById(channel)) || channelFor(platform);
  return (
    <Suspense fallback={<p className="welcome-card__lead">Loading the preview…</p>}>
      <Preview
        imageUrl={imageUrl}
        title={title}
        content={content}
        image={image}
        author={linkedIn ?? null}
        headingLevel={2}
        linkCard={linkCard}
      />
    </Suspense>
  );
}
