import { lazy, Suspense } from 'react';
import type { Platform } from '@app/shared';
import type { ApprovalLinkedInAuthor } from '@app/shared/api';

// The editor's previews, fetched with the page's answer: the Markdown renderer and sanitizer come with them only.
const loadPreviews = () => import('../create/preview/PublishPreviews');
const WordPressPreview = lazy(() => loadPreviews().then((m) => ({ default: m.WordPressPreview })));
const LinkedInPreview = lazy(() => loadPreviews().then((m) => ({ default: m.LinkedInPreview })));

export interface LinkPostPreviewProps {
  platform: Platform;
  title: string;
  content: string;
  image: { generatedAt: string; description: string } | null;
  /** Where the picture is read by the e-mailed link's token (signed in or not); '' when there is none. */
  imageUrl: string;
  /** LinkedIn: who the post goes out as (the neutral author when not known). */
  linkedIn?: ApprovalLinkedInAuthor | null;
}

/**
 * What will be published, as the editor previews it (the WordPress post or the LinkedIn card), on the pages behind
 * an e-mailed link: the owner's approval (/approve) and a reviewer's (/review).
 */
export function LinkPostPreview({ platform, title, content, image, imageUrl, linkedIn }: LinkPostPreviewProps) {
  return (
    <Suspense fallback={<p className="welcome-card__lead">Loading the preview…</p>}>
      {platform === 'blog' ? (
        <WordPressPreview imageUrl={imageUrl} title={title} blogContent={content} image={image} headingLevel={2} />
      ) : (
        <LinkedInPreview
          imageUrl={imageUrl}
          text={content}
          image={image}
          mode={linkedIn?.mode ?? 'personal'}
          identity={linkedIn ?? { connected: false, memberName: null }}
          headingLevel={2}
        />
      )}
    </Suspense>
  );
}
