/**
 * The Bluesky channel's facts that the server and the browser both use (docs/integrations.md, Bluesky): its id, how
 * long a post may be and how that is counted, so the editor's counter and the server's refusal agree to the
 * character. A post's length is counted in graphemes (what a person sees as one character: an emoji with skin tone,
 * or a family joined by zero-width joiners, counts once), and its UTF-8 bytes are capped too.
 */

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
