/**
 * The first lines of an article as plain text, for the cards that say what is going out (the Schedule
 * page and the calendar's dialog). List answers carry it (`Article.excerpt`), since they carry only the
 * first 100 characters of each long text. Only for showing as text: Markdown's marks are dropped, not
 * rendered (the Markdown pipeline, and its sanitizer, stay out of the cards).
 */
import { isOfflineDraftNoteLine } from './offline-draft.js';

/** Characters of an excerpt at most (about three lines of a card on a phone, two on a desktop). */
export const EXCERPT_CHARS = 240;

// Enough of a long text for the excerpt, so a 100,000-character post costs no more than a short one.
const SCAN_CHARS = 4000;

const lineText = (line: string): string =>
  line
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)+/, '') // heading, quote and list marks
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/(\*\*|__|~~|`)/g, '') // strong, strike-through, code
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,;:!?]|$)/g, '$1$2'); // emphasis

/**
 * Markdown (or plain) text as one line of plain text of at most `max` characters, cut after a word
 * with "…". A first line that is a heading equal to `title` is left out (the card shows the title),
 * as are code blocks, rules, table rows and the offline-draft note (the product's own words, not the post's).
 */
export function plainExcerpt(text: string, title = '', max = EXCERPT_CHARS): string {
  const scanned = text.slice(0, SCAN_CHARS);
  const words: string[] = [];
  // Length of words.join(' ') with its whitespace collapsed: each line is trimmed, so a joining space never
  // meets another. Once it passes `max`, later lines cannot change the cut below, and are not read: every
  // list answer computes an excerpt per article (http/article-view.ts), ~0.1-0.2 ms each over whole texts.
  // Lines are taken one at a time (not split, nor searched for the note, to the end of the scan): a blog
  // post's excerpt is full after its first two or three lines.
  let length = -1;
  let inCode = false;
  let first = true;
  for (let start = 0; start <= scanned.length && length <= max;) {
    const newline = scanned.indexOf('\n', start);
    const stop = newline < 0 ? scanned.length : newline;
    const raw = scanned.slice(start, scanned[stop - 1] === '\r' ? stop - 1 : stop);
    start = stop + 1;
    // The note's lines are the product's words, not the post's (the blank line after one is skipped below anyway).
    if (isOfflineDraftNoteLine(raw)) continue;
    if (/^\s{0,3}(```|~~~)/.test(raw)) {
      inCode = !inCode;
      continue;
    }
    if (inCode || /^\s{0,3}([-*_]\s*){3,}$/.test(raw) || /^\s*\|/.test(raw)) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    const line = lineText(raw).trim();
    if (!line) continue;
    if (first && heading && lineText(heading[1]!).trim() === title.trim()) {
      first = false;
      continue;
    }
    first = false;
    words.push(line);
    length += 1 + line.replace(/\s+/g, ' ').length;
  }
  const flat = words.join(' ').replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  // Never cut a surrogate pair in two (a word longer than the whole excerpt is cut inside it).
  const end = space > max / 2 ? space : /[\uD800-\uDBFF]/.test(cut[max - 1]!) ? max - 1 : max;
  return `${flat.slice(0, end).replace(/[\s.,;:!?-]+$/, '')}…`;
}

/** What an article's card says it is about: its blog version, else its LinkedIn post, else its topic. */
export function articleExcerpt(article: {
  title: string;
  topic: string;
  blog: { content: string };
  linkedin: { content: string };
}): string {
  for (const text of [article.blog.content, article.linkedin.content, article.topic]) {
    const excerpt = plainExcerpt(text ?? '', article.title);
    if (excerpt) return excerpt;
  }
  return '';
}
