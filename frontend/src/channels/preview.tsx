import type { ReactNode } from 'react';
import type { ArticleImage, Platform } from '@app/shared';
import { routeUrl } from '../api/client';
import type { PreviewLinkCard } from './types';

/**
 * What every channel's preview shares (docs/product.md, Create): where the picture comes from and the preview's
 * own heading. A channel's preview is loaded on demand (registry.ts), so what it renders with (the Markdown renderer
 * and sanitizer for the blog post) stays out of the pages that do not preview.
 */

/** What the previews need of the article's image. */
export type PreviewImage = Pick<ArticleImage, 'generatedAt' | 'description'>;

/** The article image publishing sends to `platform` (the same stored object the preview route serves). */
function imageSrc(articleId: string, image: PreviewImage, platform: Platform): string {
  return routeUrl('images.preview', { params: { articleId }, query: { platform, t: image.generatedAt || undefined } });
}

/**
 * Where the image comes from: the article's (the editor's image route, for the signed-in owner), or an address
 * given (the approval page's, authorized by its link's token).
 */
export type ImageSource = { articleId: string; imageUrl?: undefined } | { articleId?: undefined; imageUrl: string };

export const imageAddress = (source: ImageSource, image: PreviewImage, platform: Platform) =>
  source.imageUrl ?? imageSrc(source.articleId, image, platform);

/** The level of the preview's own heading ("WordPress preview"): below the editor's, or under a page's title. */
export type HeadingLevel = 2 | 3 | 4;

export function PreviewHeading({ level = 4, id, children }: { level?: HeadingLevel; id: string; children: ReactNode }) {
  const props = { id, className: 'publish-preview__heading', children };
  return level === 2 ? <h2 {...props} /> : level === 3 ? <h3 {...props} /> : <h4 {...props} />;
}

/** Only where the image comes from, out of a preview's props. */
export const imageSourceOf = (props: ImageSource): ImageSource =>
  props.imageUrl !== undefined ? { imageUrl: props.imageUrl } : { articleId: props.articleId };

/**
 * A post's link card, as each network draws it (`className`, the body its own): a link to where it leads, or, while
 * that is not known (a bundle's blog post before it is live), a group saying so; named "Link card: <title>" either way.
 */
export function LinkCardFrame({
  card,
  className,
  children,
}: {
  card: PreviewLinkCard;
  className: string;
  children: ReactNode;
}) {
  const label = `Link card: ${card.title}`;
  return card.href ? (
    <a className={className} href={card.href} target="_blank" rel="noopener noreferrer" aria-label={label}>
      {children}
    </a>
  ) : (
    <div className={className} role="group" aria-label={label}>
      {children}
    </div>
  );
}
