import { useDeferredValue, useId, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  escapeLittleText,
  foldLinkedInPost,
  linkedInCommentary,
  linkedInPostAuthor,
  littleTextSegments,
  type LinkedInIdentity,
  type LinkedInPostAuthor,
  type LittleSegment,
} from '@app/shared';
import {
  imageAddress,
  imageSourceOf,
  LinkCardFrame,
  PreviewHeading,
  type HeadingLevel,
  type ImageSource,
  type PreviewImage,
} from '../preview';
import type { ChannelPreviewProps, PreviewLinkCard } from '../types';
import { linkedInStatusQuery } from './status';
import '../../styles/preview.css';

/**
 * The LinkedIn card as publishing sends it (docs/product.md, Create), computed by the function its publisher calls
 * (linkedInCommentary in shared/src/little-text.ts) from the editor's text as typed, saved or not. Loaded on demand
 * (registry.ts).
 */

type LinkedInPreviewProps = ImageSource & {
  /** The LinkedIn editor's text. */
  text: string;
  image: PreviewImage | null;
  mode: 'personal' | 'company';
  /** Who the post goes out as, when known already (the approval page); else the signed-in owner's LinkedIn status. */
  identity?: LinkedInIdentity;
  headingLevel?: HeadingLevel;
  /** An article share (a blog-first bundle's post of the blog post): its card, the image as its thumbnail. */
  linkCard?: PreviewLinkCard;
};

function Segments({ segments }: { segments: LittleSegment[] }) {
  return segments.map((segment, index) =>
    segment.kind === 'hashtag' ? (
      <span key={index} className="li-card__hashtag">
        {segment.text}
      </span>
    ) : (
      segment.text
    ),
  );
}

/** A neutral avatar for an author without a known name: a person, or a page's building. */
const PLACEHOLDER_GLYPH = {
  person: 'M10 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM4.5 16.5c.8-2.9 3-4.5 5.5-4.5s4.7 1.6 5.5 4.5',
  page: 'M4.5 16.5V4h7v12.5M11.5 8h4v8.5M7 7h2M7 10h2M7 13h2M3 16.5h14',
} as const;

/**
 * The author a post goes out as (linkedInPostAuthor): from the identity given, else from the signed-in owner's
 * LinkedIn status (the query is not made when the identity is given: the approval page may be signed out).
 */
function useAuthor(mode: 'personal' | 'company', identity: LinkedInIdentity | undefined): LinkedInPostAuthor {
  const { data } = useQuery({ ...linkedInStatusQuery, staleTime: 5 * 60_000, enabled: identity === undefined });
  return linkedInPostAuthor(identity ?? data, mode);
}

function Avatar({ author }: { author: LinkedInPostAuthor }) {
  if (author.initials)
    return (
      <span className="li-card__avatar" aria-hidden="true">
        {author.initials}
      </span>
    );
  return (
    <span className="li-card__avatar is-placeholder" aria-hidden="true">
      <svg viewBox="0 0 20 20" width="26" height="26" fill="none" stroke="currentColor" strokeWidth="1.5">
        <path d={PLACEHOLDER_GLYPH[author.placeholder]} strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}

/** An article share's card, as LinkedIn shows it under the text: the thumbnail, the title and the site. */
function ArticleCard({ card, image }: { card: PreviewLinkCard; image: ReactNode }) {
  return (
    <LinkCardFrame card={card} className="li-card__article">
      {image}
      <span className="li-card__article-body">
        <span className="li-card__article-title">{card.title}</span>
        <span className="li-card__article-site">{card.site}</span>
      </span>
    </LinkCardFrame>
  );
}

/**
 * The LinkedIn post card: author, the commentary as LinkedIn shows the text publishing sends (hashtags linked),
 * folded behind "…see more" where the feed folds it (LINKEDIN_FEED_FOLD), and the 1200×627 image, or an article share's
 * card with the image as its thumbnail.
 */
export function LinkedInPreview({
  text,
  image,
  mode,
  identity,
  headingLevel,
  linkCard,
  ...source
}: LinkedInPreviewProps) {
  const headingId = useId();
  const textId = useId();
  const [expanded, setExpanded] = useState(false);
  const author = useAuthor(mode, identity);
  const typed = useDeferredValue(text);
  const { segments, fold, cut } = useMemo(() => {
    const commentary = linkedInCommentary(typed);
    const shown = littleTextSegments(commentary);
    return {
      segments: shown,
      fold: foldLinkedInPost(shown),
      // The escapes made the text longer than LinkedIn takes: publishing sends it cut.
      cut: commentary !== escapeLittleText(typed.trim()),
    };
  }, [typed]);
  const empty = segments.length === 0;
  const picture = image && (
    <img
      className="li-card__image"
      src={imageAddress(source, image, 'linkedin')}
      alt={image.description ? `Post image: ${image.description}` : 'Post image'}
      width={1200}
      height={627}
    />
  );

  return (
    <section className="publish-preview" aria-labelledby={headingId}>
      <PreviewHeading level={headingLevel} id={headingId}>
        LinkedIn preview
      </PreviewHeading>
      <article className="li-card" aria-label="LinkedIn post">
        <header className="li-card__author">
          <Avatar author={author} />
          <span className="li-card__who">
            <span className="li-card__name">{author.name}</span>
            <span className="li-card__detail">{author.detail} · Now</span>
          </span>
        </header>
        {empty ? (
          <p className="li-card__text muted">Nothing to preview yet.</p>
        ) : (
          <p className="li-card__text" id={textId}>
            <Segments segments={expanded || !fold.folded ? segments : fold.visible} />
            {fold.folded && (
              <button
                type="button"
                className="li-card__more"
                aria-expanded={expanded}
                aria-controls={textId}
                onClick={() => setExpanded((open) => !open)}
              >
                {expanded ? ' see less' : '…see more'}
              </button>
            )}
          </p>
        )}
        {linkCard ? <ArticleCard card={linkCard} image={picture} /> : picture}
      </article>
      {cut && (
        <p className="publish-preview__note" role="note">
          With LinkedIn&apos;s escapes this text is over 3000 characters: the post ends where the preview ends.
        </p>
      )}
    </section>
  );
}

/**
 * The channel's preview as the registry renders it: the author given (a link's page; null when not known), else the
 * signed-in owner's connection.
 */
export default function Preview(props: ChannelPreviewProps) {
  const { content, image, headingLevel, postingMode, author, linkCard } = props;
  return (
    <LinkedInPreview
      {...imageSourceOf(props)}
      text={content}
      image={image}
      headingLevel={headingLevel}
      linkCard={linkCard}
      mode={author?.mode ?? postingMode ?? 'personal'}
      identity={author === undefined ? undefined : (author ?? { connected: false, memberName: null })}
    />
  );
}
