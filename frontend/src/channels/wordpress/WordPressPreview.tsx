import { useDeferredValue, useId, useMemo } from 'react';
import { wordpressPost } from '@app/shared';
import {
  imageAddress,
  imageSourceOf,
  PreviewHeading,
  type HeadingLevel,
  type ImageSource,
  type PreviewImage,
} from '../preview';
import type { ChannelPreviewProps } from '../types';
import '../../styles/preview.css';

/**
 * The WordPress post as publishing sends it (docs/product.md, Create), computed by the function its publisher calls
 * (wordpressPost in shared/src/markdown.ts) from the editor's text as typed, saved or not. Loaded on demand
 * (registry.ts): the Markdown renderer and sanitizer come with it only.
 */

type WordPressPreviewProps = ImageSource & {
  title: string;
  /** The blog editor's text. */
  blogContent: string;
  image: PreviewImage | null;
  headingLevel?: HeadingLevel;
};

/** The WordPress post: featured image (1200×800), title and the sanitized HTML publishing sends. */
export function WordPressPreview({ title, blogContent, image, headingLevel, ...source }: WordPressPreviewProps) {
  const headingId = useId();
  // Typing stays responsive on a long article: the preview renders the text React can spare time for.
  const content = useDeferredValue(blogContent);
  const post = useMemo(() => wordpressPost({ title, blogContent: content }), [title, content]);
  // A text that is only the title's heading previews as nothing yet, as it publishes.
  const empty = !post.html.trim();
  return (
    <section className="publish-preview" aria-labelledby={headingId}>
      <PreviewHeading level={headingLevel} id={headingId}>
        WordPress preview
      </PreviewHeading>
      <article className="wp-preview" aria-label="WordPress post" tabIndex={0}>
        {image ? (
          <img
            className="wp-preview__image"
            src={imageAddress(source, image, 'blog')}
            alt={image.description ? `Featured image: ${image.description}` : 'Featured image'}
            width={1200}
            height={800}
          />
        ) : (
          <p className="wp-preview__no-image">No featured image yet: add one in the Image step.</p>
        )}
        <h1 className="wp-preview__title">{post.title}</h1>
        {empty ? (
          <p className="muted">Nothing to preview yet.</p>
        ) : (
          // The HTML of renderMarkdown, sanitized there with its allow-list (no script, handler or
          // javascript: link): exactly what WordPress receives, and the only HTML set this way.
          <div className="markdown wp-preview__body" dangerouslySetInnerHTML={{ __html: post.html }} />
        )}
      </article>
    </section>
  );
}

/** The channel's preview as the registry renders it. */
export default function Preview(props: ChannelPreviewProps) {
  const { title, content, image, headingLevel } = props;
  return (
    <WordPressPreview
      {...imageSourceOf(props)}
      title={title}
      blogContent={content}
      image={image}
      headingLevel={headingLevel}
    />
  );
}
