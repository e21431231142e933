import { useDeferredValue, useId, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { imageAddress, imageSourceOf, LinkCardFrame, PreviewHeading } from '../preview';
import type { ChannelPreviewProps, PreviewLinkCard } from '../types';
import { richSegments, type RichSegment } from './richText';
import { blueskyStatusQuery } from './status';
import '../../styles/preview.css';
import './bluesky-preview.css';

/** A link as Bluesky shows it inside a post: its host and path, shortened. */
function shortLink(href: string): string {
  const shown = href.replace(/^https?:\/\//i, '');
  return shown.length > 30 ? `${shown.slice(0, 27)}...` : shown;
}

function Segments({ segments }: { segments: RichSegment[] }) {
  return segments.map((segment, index) =>
    segment.kind === 'text' ? (
      segment.text
    ) : segment.kind === 'link' ? (
      <a key={index} className="bsky-post__link" href={segment.href} target="_blank" rel="noopener noreferrer">
        {shortLink(segment.href)}
      </a>
    ) : (
      <a
        key={index}
        className="bsky-post__link"
        href={`https://bsky.app/hashtag/${encodeURIComponent(segment.tag)}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        {segment.text}
      </a>
    ),
  );
}

/**
 * The link card under a post (app.bsky.embed.external): the picture, the site and the title; a link when its address
 * is known.
 */
function LinkCard({ card, imageSrc, alt }: { card: PreviewLinkCard; imageSrc: string | null; alt: string }) {
  return (
    <LinkCardFrame card={card} className="bsky-post__card">
      {imageSrc && <img className="bsky-post__card-image" src={imageSrc} alt={alt} />}
      <span className="bsky-post__card-body">
        <span className="bsky-post__card-host">{card.site}</span>
        <span className="bsky-post__card-title">{card.title}</span>
      </span>
    </LinkCardFrame>
  );
}

/**
 * The Bluesky post as people see it in their feed (docs/integrations.md, Bluesky): the connected account's handle,
 * the text with its links and hashtags styled by the rules the server makes its facets with, the article's image
 * with its description as alt text, and a link card: the one given (a bundle's blog post), else the text's first link's.
 * Loaded on demand (registry.ts).
 */
export default function BlueskyPreview(props: ChannelPreviewProps) {
  const { title, content, image, headingLevel } = props;
  const source = imageSourceOf(props);
  const headingId = useId();
  const status = useQuery(blueskyStatusQuery).data;
  const handle = status?.connected ? status.fields.handle : null;
  const text = useDeferredValue(content);
  const segments = useMemo(() => richSegments(text), [text]);
  const link = segments.find((segment) => segment.kind === 'link');
  const card: PreviewLinkCard | undefined =
    props.linkCard ??
    (link && link.kind === 'link' ? { title, site: new URL(link.href).host, href: link.href } : undefined);
  const imageSrc = image ? imageAddress(source, image, 'blog') : null;
  const alt = image?.description || title;
  return (
    <section className="publish-preview" aria-labelledby={headingId}>
      <PreviewHeading level={headingLevel} id={headingId}>
        Bluesky preview
      </PreviewHeading>
      <article className="bsky-post" aria-label="Bluesky post">
        <span className="bsky-post__avatar" aria-hidden="true">
          {(handle ?? '?').charAt(0).toUpperCase()}
        </span>
        <div className="bsky-post__main">
          <p className="bsky-post__author">
            <span className="bsky-post__name">{handle ?? 'Your Bluesky account'}</span>
            {handle && <span className="bsky-post__handle">@{handle}</span>}
            <span className="bsky-post__time">· now</span>
          </p>
          {text.trim() ? (
            <p className="bsky-post__text">
              <Segments segments={segments} />
            </p>
          ) : (
            <p className="muted bsky-post__text">Nothing to preview yet.</p>
          )}
          {card ? (
            <LinkCard card={card} imageSrc={imageSrc} alt={alt} />
          ) : imageSrc ? (
            <figure className="bsky-post__image">
              <img src={imageSrc} alt={alt} />
              <figcaption className="bsky-post__alt" aria-hidden="true">
                ALT
              </figcaption>
            </figure>
          ) : null}
        </div>
      </article>
    </section>
  );
}
