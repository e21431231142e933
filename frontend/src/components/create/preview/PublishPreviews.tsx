import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  escapeLittleText,
  foldLinkedInPost,
  linkedInCommentary,
  littleTextSegments,
  wordpressPost,
  type ArticleImage,
  type LittleSegment,
  type Platform,
} from '@app/shared';
import { routeUrl } from '../../../api/client';
import { linkedInStatusQuery } from '../../settings/types';
import '../../../styles/preview.css';

/**
 * The content step's previews (docs/product.md, Create): what publishing will send, computed by the functions the
 * publishers call (wordpressPost in shared/src/markdown.ts, linkedInCommentary in shared/src/little-text.ts) from
 * the editor's text as typed, saved or not. This module is loaded on demand with the modal, so marked and
 * sanitize-html stay out of the pages that do not preview.
 */

/** What the previews need of the article's image. */
type PreviewImage = Pick<ArticleImage, 'generatedAt' | 'description'>;

/** The article image publishing sends to `platform` (the same stored object the preview route serves). */
function imageSrc(articleId: string, image: PreviewImage, platform: Platform): string {
  return routeUrl('images.preview', { params: { articleId }, query: { platform, t: image.generatedAt || undefined } });
}

interface WordPressPreviewProps {
  articleId: string;
  title: string;
  /** The blog editor's text. */
  blogContent: string;
  image: PreviewImage | null;
}

/** The WordPress post: featured image (1200×800), title and the sanitized HTML publishing sends. */
export function WordPressPreview({ articleId, title, blogContent, image }: WordPressPreviewProps) {
  const headingId = useId();
  // Typing stays responsive on a long article: the preview renders the text React can spare time for.
  const content = useDeferredValue(blogContent);
  const post = useMemo(() => wordpressPost({ title, blogContent: content }), [title, content]);
  // A text that is only the title's heading previews as nothing yet, as it publishes.
  const empty = !post.html.trim();
  return (
    <section className="publish-preview" aria-labelledby={headingId}>
      <h4 id={headingId} className="publish-preview__heading">
        WordPress preview
      </h4>
      <article className="wp-preview" aria-label="WordPress post" tabIndex={0}>
        {image ? (
          <img
            className="wp-preview__image"
            src={imageSrc(articleId, image, 'blog')}
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

interface LinkedInPreviewProps {
  articleId: string;
  /** The LinkedIn editor's text. */
  text: string;
  image: PreviewImage | null;
  mode: 'personal' | 'company';
}

/** Up to two initials of a name, for the avatar. */
const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join('');

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

interface Author {
  name: string;
  detail: string;
  /** Initials of the member's or page's name, or the placeholder glyph shown instead. */
  avatar: { initials: string } | { glyph: keyof typeof PLACEHOLDER_GLYPH };
}

/** The author a post goes out as: the connected member, or (company mode) the page publishing picks. */
function useAuthor(mode: 'personal' | 'company'): Author {
  const { data } = useQuery({ ...linkedInStatusQuery, staleTime: 5 * 60_000 });
  if (!data?.connected)
    return { name: 'LinkedIn member', detail: 'Connect LinkedIn in Settings', avatar: { glyph: 'person' } };
  // Publishing posts as the first page the member administers (functions/src/domain/publishing.ts); its name is
  // looked up on connecting with page access (functions/src/domain/linkedin.ts), else not known.
  if (mode === 'company') {
    const pageInitials = data.pageName ? initialsOf(data.pageName) : '';
    return {
      name: data.pageName || 'Your LinkedIn Page',
      detail: 'A page you administer',
      avatar: pageInitials ? { initials: pageInitials } : { glyph: 'page' },
    };
  }
  const initials = data.memberName ? initialsOf(data.memberName) : '';
  return {
    name: data.memberName || 'LinkedIn member',
    detail: 'Your profile',
    avatar: initials ? { initials } : { glyph: 'person' },
  };
}

function Avatar({ avatar }: { avatar: Author['avatar'] }) {
  if ('initials' in avatar)
    return (
      <span className="li-card__avatar" aria-hidden="true">
        {avatar.initials}
      </span>
    );
  return (
    <span className="li-card__avatar is-placeholder" aria-hidden="true">
      <svg viewBox="0 0 20 20" width="26" height="26" fill="none" stroke="currentColor" strokeWidth="1.5">
        <path d={PLACEHOLDER_GLYPH[avatar.glyph]} strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}

/**
 * The LinkedIn post card: author, the commentary as LinkedIn shows the text publishing sends (hashtags linked),
 * folded behind "…see more" where the feed folds it (LINKEDIN_FEED_FOLD), and the 1200×627 image.
 */
export function LinkedInPreview({ articleId, text, image, mode }: LinkedInPreviewProps) {
  const headingId = useId();
  const textId = useId();
  const [expanded, setExpanded] = useState(false);
  const author = useAuthor(mode);
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
      <h4 id={headingId} className="publish-preview__heading">
        LinkedIn preview
      </h4>
      <article className="li-card" aria-label="LinkedIn post">
        <header className="li-card__author">
          <Avatar avatar={author.avatar} />
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
            src={imageSrc(articleId, image, 'linkedin')}
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
