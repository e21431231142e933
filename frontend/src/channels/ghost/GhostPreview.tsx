import { useDeferredValue, useId, useMemo } from 'react';
import { wordpressPost } from '@app/shared';
import { imageAddress, imageSourceOf, PreviewHeading } from '../preview';
import type { ChannelPreviewProps } from '../types';
import '../../styles/preview.css';
import './ghost-preview.css';

/**
 * The Ghost post as publishing sends it (docs/integrations.md, Ghost): the same title and sanitized HTML as the
 * WordPress post (wordpressPost, shared/src/markdown.ts, which the Ghost channel's publish calls too), laid out as a
 * Ghost post page: the title first, the feature image under it, a narrow column of text. Loaded on demand
 * (registry.ts).
 */
export default function GhostPreview(props: ChannelPreviewProps) {
  const { title, content, image, headingLevel } = props;
  const source = imageSourceOf(props);
  const headingId = useId();
  // Typing stays responsive on a long article: the preview renders the text React can spare time for.
  const text = useDeferredValue(content);
  const post = useMemo(() => wordpressPost({ title, blogContent: text }), [title, text]);
  const empty = !post.html.trim();
  return (
    <section className="publish-preview" aria-labelledby={headingId}>
      <PreviewHeading level={headingLevel} id={headingId}>
        Ghost preview
      </PreviewHeading>
      <article className="ghost-preview" aria-label="Ghost post" tabIndex={0}>
        <header className="ghost-preview__header">
          <h1 className="ghost-preview__title">{post.title}</h1>
        </header>
        {image ? (
          <figure className="ghost-preview__feature">
            <img
              src={imageAddress(source, image, 'blog')}
              alt={image.description ? `Feature image: ${image.description}` : 'Feature image'}
              width={1200}
              height={800}
            />
          </figure>
        ) : (
          <p className="ghost-preview__no-image">No feature image yet: add one in the Image step.</p>
        )}
        {empty ? (
          <p className="muted ghost-preview__empty">Nothing to preview yet.</p>
        ) : (
          // The HTML of renderMarkdown, sanitized there with its allow-list: exactly what Ghost receives.
          <div className="markdown ghost-preview__body" dangerouslySetInnerHTML={{ __html: post.html }} />
        )}
      </article>
    </section>
  );
}
