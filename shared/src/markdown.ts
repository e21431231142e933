/**
 * The one Markdown pipeline: what is published to WordPress and what the editor's preview shows
 * are both `renderMarkdown(content)`, byte for byte.
 *
 *   Markdown → HTML   marked, one fixed option set (GitHub-flavoured, no soft line breaks)
 *   HTML → safe HTML  sanitize-html with an allow-list of tags, attributes and URL schemes
 *
 * Both are plain JavaScript (no DOM), so a Lambda and the browser give the same output. The blog
 * text comes from people, the AI drafts and Sheets imports, and marked passes raw HTML through, so
 * the sanitizer is what keeps scripts, event handlers and `javascript:` / `data:` links out.
 *
 * Allowed: the blocks and inline marks Markdown produces (headings, paragraphs, lists, quotes,
 * code, rules, tables, emphasis, strike-through) and links and images, nothing else (no style,
 * class other than a code block's language, id, script, iframe, object, embed, form or input).
 *   - a[href]: http, https and mailto, or a relative address (a path or `#anchor`: in the post it
 *     points into the blog itself; it cannot run anything). Protocol-relative `//host` is refused.
 *     Absolute http(s) links open in a new tab with rel="noopener noreferrer", in the post as in
 *     the preview (leaving the editor by a click would drop the draft's unsaved text).
 *     A link whose address is refused keeps its text only.
 *   - img[src]: absolute http(s) only; an image without one is dropped (a relative source would be
 *     fetched from this app's own origin in the preview).
 */
import type { Token, Tokens } from 'marked';
import { Marked, sanitizeHtml } from '#markdown-libraries';

const markdown = new Marked({ async: false, gfm: true, breaks: false, pedantic: false, silent: false });

const ABSOLUTE_HTTP = /^https?:\/\//i;
const CELL_ALIGN = { name: 'align', multiple: false, values: ['left', 'center', 'right'] };

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'strong',
    'em',
    'b',
    'i',
    'u',
    's',
    'del',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    // target and rel are set by transformTags below only (an author's own are dropped there).
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    th: [CELL_ALIGN],
    td: [CELL_ALIGN],
  },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // The contents of these go too, not just the tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'object', 'embed', 'template'],
  transformTags: {
    a: (tagName, attribs) => {
      const { target: _target, rel: _rel, ...rest } = attribs;
      const external = ABSOLUTE_HTTP.test((rest.href ?? '').trim());
      return { tagName, attribs: external ? { ...rest, target: '_blank', rel: 'noopener noreferrer' } : rest };
    },
  },
  // Sees the attributes that passed: an image whose source was refused (or relative) goes, and a
  // link whose address was refused becomes its plain text.
  exclusiveFilter: (frame) => {
    if (frame.tag === 'img') return !ABSOLUTE_HTTP.test(frame.attribs.src ?? '');
    if (frame.tag === 'a' && !frame.attribs.href) return 'excludeTag';
    return false;
  },
};

/** Markdown → sanitized HTML: exactly what is published to WordPress and shown in the preview. */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(markdown.parse(source, { async: false }), SANITIZE);
}

/** The WordPress post an article makes: the fields of POST /wp/v2/posts that come from its text. */
export interface WordPressPostContent {
  /** The title as the reader sees it (the preview shows it as text). */
  title: string;
  /**
   * The title as sent: WordPress takes a post's title as HTML and themes print it as it is, so the
   * text is escaped (a title from a spreadsheet cell must not put a script on the blog).
   */
  titleHtml: string;
  /** The sanitized HTML of the blog text (renderMarkdown). */
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text as HTML that shows exactly that text. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * What publishing sends to WordPress as the post's title and content (functions/src/domain/publishing.ts),
 * and what the editor's WordPress preview shows: one function, so the two cannot differ.
 *
 * WordPress shows the post's title as the page's heading already, so a first heading of the text that says
 * the title again (drafts used to start with `# <title>`) is left out: it would be a second, repeated H1.
 */
export function wordpressPost(article: { title: string; blogContent: string }): WordPressPostContent {
  return {
    title: article.title,
    titleHtml: escapeHtml(article.title),
    html: renderMarkdown(withoutTitleHeading(article.blogContent, article.title)),
  };
}

/** A title or heading as compared: letters and digits only, in lower case (case, spacing and punctuation aside). */
const comparable = (text: string) =>
  text
    .normalize('NFKC')
    .toLocaleLowerCase()
    // new RegExp, not a literal: a \p{…} literal costs every Lambda cold start (shared/src/unicode-regexp.ts).
    .replace(new RegExp(String.raw`[^\p{L}\p{N}]+`, 'gu'), '');

/** The words of inline tokens (emphasis, code, links' text…), without Markdown marks or HTML tags. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === 'html') return '';
      if ('tokens' in token && token.tokens) return plainText(token.tokens);
      return 'text' in token && typeof token.text === 'string' ? token.text : '';
    })
    .join('');
}

/** The text without its leading heading when that heading reads as the title; otherwise the text as it is. */
function withoutTitleHeading(source: string, title: string): string {
  const wanted = comparable(title);
  if (!wanted) return source;
  // The lexer reads line ends as \n: offsets are counted in the same text.
  const text = source.replace(/\r\n?/g, '\n');
  let offset = 0;
  for (const token of markdown.lexer(text)) {
    offset += token.raw.length;
    if (token.type === 'space') continue;
    return token.type === 'heading' && comparable(plainText((token as Tokens.Heading).tokens)) === wanted
      ? text.slice(offset)
      : source;
  }
  return source;
}
