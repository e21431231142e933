import { findHashtags, findLinks } from '@app/shared/channels/bluesky';

/** A piece of a post's text as Bluesky shows it: plain, a link, or a hashtag. */
export type RichSegment =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'tag'; text: string; tag: string };

/**
 * The text cut where the server puts its link and hashtag facets (the same rules, shared/src/channels/bluesky), so the
 * preview styles exactly what becomes a link on Bluesky. A hashtag inside a link stays part of the link.
 */
export function richSegments(text: string): RichSegment[] {
  const found = [
    ...findLinks(text).map((m) => ({ ...m, kind: 'link' as const, value: m.uri })),
    ...findHashtags(text).map((m) => ({ ...m, kind: 'tag' as const, value: m.tag })),
  ].sort((a, b) => a.start - b.start);
  const segments: RichSegment[] = [];
  let at = 0;
  for (const match of found) {
    if (match.start < at) continue;
    if (match.start > at) segments.push({ kind: 'text', text: text.slice(at, match.start) });
    const piece = text.slice(match.start, match.end);
    segments.push(
      match.kind === 'link'
        ? { kind: 'link', text: piece, href: match.value }
        : { kind: 'tag', text: piece, tag: match.value },
    );
    at = match.end;
  }
  if (at < text.length) segments.push({ kind: 'text', text: text.slice(at) });
  return segments;
}
