/**
 * Bluesky's text rules as pure functions (docs/integrations.md, Bluesky): the length of a post in graphemes (what a
 * person sees as one character: an emoji with skin tone or a family joined by zero-width joiners counts once),
 * and the facets (links, hashtags, mentions) whose ranges are UTF-8 byte offsets into the text, not the string
 * indexes JavaScript counts in UTF-16 units.
 */
import { createHash } from 'node:crypto';
import {
  BLUESKY_MAX_BYTES,
  BLUESKY_MAX_GRAPHEMES,
  blueskyTextProblem,
  findHashtags,
  findLinks,
  graphemeLength,
  TAG_MAX_LENGTH,
  utf8Length,
  type BlueskyTextMatch,
} from '@app/shared/channels/bluesky';

// The length rules are shared with the editor's counter, the link and hashtag rules with the preview
// (shared/src/channels/bluesky).
export { findHashtags, findLinks, graphemeLength, TAG_MAX_LENGTH, utf8Length };
export const POST_MAX_GRAPHEMES = BLUESKY_MAX_GRAPHEMES;
export const POST_MAX_BYTES = BLUESKY_MAX_BYTES;
export const postTextProblem = blueskyTextProblem;

export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string };

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: FacetFeature[];
}

/** A piece of the text found by a rule: its UTF-16 range (start inclusive, end exclusive). */
type Match = BlueskyTextMatch;

/** @handle mentions (a handle has at least one dot); each needs the account's DID before it becomes a facet. */
export function findMentions(text: string): (Match & { handle: string })[] {
  const found: (Match & { handle: string })[] = [];
  for (const match of text.matchAll(
    /(^|\s|\()@(([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?)\b/gi,
  )) {
    const start = match.index + match[1]!.length;
    found.push({ start, end: start + 1 + match[2]!.length, handle: match[2]!.toLowerCase() });
  }
  return found;
}

/** The UTF-8 byte offset of each UTF-16 index of `text` that `indexes` asks for. */
function byteOffsets(text: string, indexes: number[]): Map<number, number> {
  const wanted = [...new Set(indexes)].sort((a, b) => a - b);
  const offsets = new Map<number, number>();
  let bytes = 0;
  let at = 0;
  for (const index of wanted) {
    bytes += utf8Length(text.slice(at, index));
    at = index;
    offsets.set(index, bytes);
  }
  return offsets;
}

/**
 * The facets of a post's text: its links and hashtags, and the mentions whose handle `dids` resolves (a mention
 * of an unknown account stays plain text). Ranges are UTF-8 byte offsets, in text order, never overlapping (a '#'
 * inside a link is part of the link).
 */
export function detectFacets(text: string, dids: ReadonlyMap<string, string> = new Map()): Facet[] {
  const matches: (Match & { feature: FacetFeature })[] = [
    ...findLinks(text).map((m) => ({ ...m, feature: { $type: 'app.bsky.richtext.facet#link', uri: m.uri } as const })),
    ...findHashtags(text).map((m) => ({
      ...m,
      feature: { $type: 'app.bsky.richtext.facet#tag', tag: m.tag } as const,
    })),
    ...findMentions(text).flatMap((m) => {
      const did = dids.get(m.handle);
      return did ? [{ ...m, feature: { $type: 'app.bsky.richtext.facet#mention', did } as const }] : [];
    }),
  ].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: typeof matches = [];
  for (const match of matches) if (!kept.some((k) => match.start < k.end && k.start < match.end)) kept.push(match);
  const offsets = byteOffsets(
    text,
    kept.flatMap((m) => [m.start, m.end]),
  );
  return kept.map((m) => ({
    index: { byteStart: offsets.get(m.start)!, byteEnd: offsets.get(m.end)! },
    features: [m.feature],
  }));
}

/** The text a facet covers (its byte range cut out of the UTF-8 text): how a reader of the record finds it. */
export function facetText(text: string, facet: Facet): string {
  return Buffer.from(text, 'utf8').subarray(facet.index.byteStart, facet.index.byteEnd).toString('utf8');
}

const TID_ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';

/**
 * A TID (atproto's timestamp identifier, the record key type app.bsky.feed.post requires): 13 characters of
 * base32-sortable text for 64 bits, the top one zero, then microseconds since 1970 (53 bits) and a clock id (10).
 */
export function tid(microseconds: bigint, clockId: number): string {
  let value = ((microseconds & ((1n << 53n) - 1n)) << 10n) | BigInt(clockId & 0x3ff);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = TID_ALPHABET[Number(value & 31n)]! + out;
    value >>= 5n;
  }
  return out;
}

/**
 * The record key of an article's post on one channel: the same for the same article, channel and `since` (the
 * article's first publish attempt, kept with it), so a retry writes under the same key and finds the post an
 * earlier attempt made. Its time part is `since`, so posts sort as they were made; the clock id comes from the
 * article and channel, so two articles of the same microsecond get different keys.
 */
export function postRecordKey(articleId: string, channel: string, since: string | Date): string {
  const millis = new Date(since).getTime();
  if (!Number.isFinite(millis)) throw new RangeError(`Not a time: ${String(since)}`);
  const clockId = createHash('sha256').update(`${articleId}\u0000${channel}`).digest().readUInt16BE(0) & 0x3ff;
  return tid(BigInt(millis) * 1000n, clockId);
}

/** The post's page on the web app. */
export function postWebUrl(did: string, rkey: string): string {
  return `https://bsky.app/profile/${did}/post/${rkey}`;
}
