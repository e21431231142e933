import { useDeferredValue, useId, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  escapeLittleText,
  foldLinkedInPost,
  linkedInCommentary,
  linkedInPostAuthor,
  littleTextSegments,
  wordpressPost,
  type ArticleImage,
  type LinkedInIdentity,
  type LinkedInPostAuthor,
  type LittleSegment,
  type Platform,
} from '@app/shared';
import { routeUrl } from '../../../api/client';
import { linkedInStatusQuery } from '../../settings/types';
import '../../../styles/preview.css';

/**
 * The content step's previews (docs/product.md, Create): what publishing will send, computed by the functions the
 * publishers call (wordpressPost in shared/src/markdown.ts, linkedInCommentary in shared/src/little-text.ts) from
 * the editor's text as typed, saved or not. The approval page (pages/Approve.tsx) shows the same components for
 * the text it is asked to approve. This module is loaded on demand by both, so marked and sanitize-html stay out
 * of the pages that do not preview.
 */

/** What the previews need of the article's image. */
type PreviewImage = Pick<ArticleImage, 'generatedAt' | 'description'>;

/** The article image publishing sends to `platform` (the same stored object the preview route serves). */
function imageSrc(articleId: string, image: PreviewImage, platform: Platform): string {
  return routeUrl('images.preview', { params: { articleId }, query: { platform, t: image.generatedAt || undefined } });
}

/**
 * Where the image comes from: the article's (the editor's image route, for the signed-in owner), or an address
 * given (the approval page's, authorized by its link's token).
 */
type ImageSource = { articleId: string; imageUrl?: undefined } | { articleId?: undefined; imageUrl: string };

const imageAddress = (source: ImageSource, image: PreviewImage, platform: Platform) =>
  source.imageUrl ?? imageSrc(source.articleId, image, platform);

/** The level of the preview's own heading ("WordPress preview"): below the editor's, or under a page's title. */
type HeadingLevel = 2 | 3 | 4;

function PreviewHeading({ level = 4, id, children }: { level?: HeadingLevel; id: string; children: ReactNode }) {
  const props = { id, className: 'publish-preview__heading', children };
  return level === 2 ? <h2 {...props} /> : level === 3 ? <h3 {...props} /> : <h4 {...props} />;
}

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

type LinkedInPreviewProps = ImageSource & {
  /** The LinkedIn editor's text. */
  text: string;
  image: PreviewImage | null;
  mode: 'personal' | 'company';
  /** Who the post goes out as, when known already (the approval page); else the signed-in owner's LinkedIn status. */
  identity?: LinkedInIdentity;
  headingLevel?: HeadingLevel;
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

/**
 * The LinkedIn post card: author, the commentary as LinkedIn shows the text publishing sends (hashtags linked),
 * folded behind "…see more" where the feed folds it (LINKEDIN_FEED_FOLD), and the 1200×627 image.
 */
export function LinkedInPreview({ text, image, mode, identity, headingLevel, ...source }: LinkedInPreviewProps) {
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
        {image && (
          <img
            className="li-card__image"
            src={imageAddress(source, image, 'linkedin')}
            alt={image.description ? `Post image: ${image.description}` : 'Post image'}
            width={1200}
            height={627}
          />
        )}
      </article>
      {cut && (
        <p className="publish-preview__note" role="note">
          With LinkedIn&apos;s escapes this text is over 3000 characters: the post ends where the preview ends.
        </p>
      )}
    </section>
  );
}
