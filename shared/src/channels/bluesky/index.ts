/**
 * The Bluesky channel's facts that the server and the browser both use (docs/integrations.md, Bluesky): its id, how
 * long a post may be and how that is counted, so the editor's counter and the server's refusal agree to the
 * character. A post's length is counted in graphemes (what a person sees as one character: an emoji with skin tone,
 * or a family joined by zero-width joiners, counts once), and its UTF-8 bytes are capped too.
 */

import { lazyRegExp } from '../../unicode-regexp.js';

export const BLUESKY_ID = 'bluesky';

/** app.bsky.feed.post: text of at most 300 graphemes and 3000 bytes. */
export const BLUESKY_MAX_GRAPHEMES = 300;
export const BLUESKY_MAX_BYTES = 3000;

let segmenter: Intl.Segmenter | undefined;

/** The number of graphemes in `text`. */
export function graphemeLength(text: string): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
}

const encoder = new TextEncoder();
export const utf8Length = (text: string): number => encoder.encode(text).length;

/** Why a post's text cannot go out as it is, or undefined when it can. */
export function blueskyTextProblem(text: string): string | undefined {
  const graphemes = graphemeLength(text);
  if (graphemes > BLUESKY_MAX_GRAPHEMES)
    return `The Bluesky post is ${graphemes} characters long; Bluesky allows ${BLUESKY_MAX_GRAPHEMES}. Shorten it by ${graphemes - BLUESKY_MAX_GRAPHEMES}.`;
  const bytes = utf8Length(text);
  if (bytes > BLUESKY_MAX_BYTES)
    return `The Bluesky post is too long for Bluesky (${bytes} bytes of text, at most ${BLUESKY_MAX_BYTES}). Shorten it.`;
  return undefined;
}

/** A piece of the text found by a rule: its UTF-16 range (start inclusive, end exclusive). */
export interface BlueskyTextMatch {
  start: number;
  end: number;
}

/** A hashtag's tag (without the #): at most 64 characters (app.bsky.richtext.facet#tag). */
export const TAG_MAX_LENGTH = 64;

// The rules by which the server makes a post's link and hashtag facets (functions/src/channels/bluesky/text.ts) and
// the editor's preview styles them.

/** Characters a link does not end with: sentence punctuation after it belongs to the sentence. */
const TRAILING = /[.,;:!?'"]+$/;

/**
 * http(s) links. A link ends at white space or a character a URL does not carry unescaped; closing punctuation
 * after it and a closing bracket without its opening one inside the link stay outside.
 */
export function findLinks(text: string): (BlueskyTextMatch & { uri: string })[] {
  const found: (BlueskyTextMatch & { uri: string })[] = [];
  for (const match of text.matchAll(/(^|[\s([{<"'])(https?:\/\/[^\s<>"'`{}|\\^]+)/gi)) {
    let uri = match[2]!;
    const start = match.index + match[1]!.length;
    for (;;) {
      const before = uri;
      uri = uri.replace(TRAILING, '');
      for (const [open, close] of [
        ['(', ')'],
        ['[', ']'],
      ] as const) {
        if (uri.endsWith(close) && count(uri, close) > count(uri, open)) uri = uri.slice(0, -1);
      }
      if (uri === before) break;
    }
    try {
      const url = new URL(uri);
      if (!url.hostname.includes('.') && url.hostname !== 'localhost') continue;
    } catch {
      continue;
    }
    found.push({ start, end: start + uri.length, uri });
  }
  return found;
}

const count = (text: string, char: string) => text.split(char).length - 1;

/**
 * A hashtag: # (or the full-width one) after the start or white space, then characters up to white space, not only
 * digits, trailing punctuation left out. Built on first use: Unicode property escapes cost every cold start
 * as literals (shared/src/unicode-regexp.ts).
 */
const HASHTAG = lazyRegExp(
  String.raw`(^|\s)[#\uFF03]((?!\uFE0F)[^\s\u00AD\u2060\u200A\u200B\u200C\u200D\u20E2]+)`,
  'gu',
);
const TAG_TRAILING_PUNCTUATION = lazyRegExp(String.raw`\p{P}+$`, 'u');
const ONLY_DIGITS = /^[0-9]+$/;

export function findHashtags(text: string): (BlueskyTextMatch & { tag: string })[] {
  const found: (BlueskyTextMatch & { tag: string })[] = [];
  for (const match of text.matchAll(HASHTAG())) {
    const tag = match[2]!.replace(TAG_TRAILING_PUNCTUATION(), '');
    if (!tag || ONLY_DIGITS.test(tag) || tag.length > TAG_MAX_LENGTH) continue;
    const start = match.index + match[1]!.length;
    // The range covers the '#' as well: the app shows the whole "#tag" as the tag.
    found.push({ start, end: start + 1 + tag.length, tag });
  }
  return found;
}
