/**
 * LinkedIn's "little" text format for post commentary (docs/integrations.md, LinkedIn).
 *
 * Reserved characters must be backslash-escaped even when they are not used as markup:
 *   | { } @ [ ] ( ) < > # \ * _ ~
 * An unescaped one can make LinkedIn silently cut the published post (third-party reports), so
 * plain text from the app is always escaped before it is sent.
 *
 * Hashtags: little has a HashtagElement written as `#hashtag`. Escaping every `#` (what Postiz
 * does) turns hashtags into plain text, which is not what a LinkedIn user who typed `#marketing`
 * expects. So by default a `#` that starts a hashtag is left as it is, and every other `#` is
 * escaped. A `#` starts a hashtag when
 *   - it is at the start of the text or follows a character that is not a letter, digit, mark,
 *     `_`, `#` or `\` (so `C#`, `##x` and `a#b` are not hashtags), and
 *   - it is followed by a run of letters/digits/marks that contains at least one letter
 *     (`#1` or `#2024` alone is escaped: "#1 priority" should not become a hashtag link).
 * Only the `#` is spared: reserved characters inside the tag (e.g. `_` in `#machine_learning`)
 * are still escaped, since LinkedIn hashtags are letters and digits anyway.
 * Pass `{ keepHashtags: false }` to escape every `#` (plain text exactly as typed).
 */
import { lazyRegExp } from './unicode-regexp.js';

/** The little format's reserved characters (LinkedIn: little-text-format, "Text"). */
export const LITTLE_RESERVED_CHARACTERS = [
  '|',
  '{',
  '}',
  '@',
  '[',
  ']',
  '(',
  ')',
  '<',
  '>',
  '#',
  '\\',
  '*',
  '_',
  '~',
] as const;

/** LinkedIn's commentary limit (Postiz maxLength(), Ayrshare: "up to 3,000 characters"). */
export const LINKEDIN_COMMENTARY_MAX = 3000;

export interface LittleTextOptions {
  /** Leave the `#` of a hashtag unescaped so LinkedIn links it (default true). */
  keepHashtags?: boolean;
}

const RESERVED = new Set<string>(LITTLE_RESERVED_CHARACTERS);
const TAG_CHAR = lazyRegExp(String.raw`[\p{L}\p{M}\p{N}]`, 'u');
const LETTER = lazyRegExp(String.raw`\p{L}`, 'u');
const NOT_BEFORE_HASHTAG = lazyRegExp(String.raw`[\p{L}\p{M}\p{N}_#\\]`, 'u');

/** Whether the `#` at `index` (a code-unit index into `text`) starts a hashtag. */
function startsHashtag(text: string, index: number): boolean {
  const before = index > 0 ? lastCodePoint(text.slice(0, index)) : '';
  if (before && NOT_BEFORE_HASHTAG().test(before)) return false;
  let sawLetter = false;
  let any = false;
  for (const ch of text.slice(index + 1)) {
    if (!TAG_CHAR().test(ch)) break;
    any = true;
    if (LETTER().test(ch)) {
      sawLetter = true;
      break;
    }
  }
  return any && sawLetter;
}

function lastCodePoint(text: string): string {
  const last = text.codePointAt(text.length - 1);
  if (last === undefined) return '';
  // a low surrogate: take the pair
  if (last >= 0xdc00 && last <= 0xdfff && text.length >= 2)
    return String.fromCodePoint(text.codePointAt(text.length - 2)!);
  return String.fromCodePoint(last);
}

/** Escapes the little format's reserved characters with a backslash (hashtags kept by default). */
export function escapeLittleText(text: string, options: LittleTextOptions = {}): string {
  const keepHashtags = options.keepHashtags ?? true;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (!RESERVED.has(ch)) {
      out += ch;
      continue;
    }
    if (ch === '#' && keepHashtags && startsHashtag(text, i)) {
      out += ch;
      continue;
    }
    out += `\\${ch}`;
  }
  return out;
}

const ELLIPSIS = '…';

/**
 * Escapes `text` and makes sure the ESCAPED result has at most `max` characters (UTF-16 code
 * units, which never undercounts what LinkedIn counts). Text that fits is returned escaped and
 * otherwise unchanged. Longer text is cut on the plain text (never inside an escape sequence or a
 * surrogate pair), preferably at the last whitespace of the allowed part when that keeps at least
 * 80% of it, trailing whitespace is dropped and "…" appended.
 */
export function fitLinkedInCommentary(
  text: string,
  max: number = LINKEDIN_COMMENTARY_MAX,
  options: LittleTextOptions = {},
): string {
  const escaped = escapeLittleText(text, options);
  if (escaped.length <= max) return escaped;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max));

  // escaped length of each plain prefix: escapes only add one "\" per reserved character
  const budget = max - ELLIPSIS.length;
  let cut = 0;
  let length = 0;
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    const ch = text.slice(i, i + width);
    const add = RESERVED.has(ch) ? 2 : width; // a kept hashtag "#" is 1, so this may only overcount
    if (length + add > budget) break;
    length += add;
    i += width;
    cut = i;
  }
  // prefer a word boundary near the end
  const space = lastWhitespace(text, cut);
  if (space > 0 && space >= cut * 0.8) cut = space;

  for (; cut > 0; cut = previousBoundary(text, cut)) {
    const candidate = `${escapeLittleText(text.slice(0, cut).trimEnd(), options)}${ELLIPSIS}`;
    if (candidate.length <= max) return candidate;
  }
  return ELLIPSIS;
}

function lastWhitespace(text: string, before: number): number {
  for (let i = before; i > 0; i--) if (/\s/.test(text[i]!)) return i;
  return -1;
}

/** The code-unit index of the code point before `index`. */
function previousBoundary(text: string, index: number): number {
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
}

/**
 * The commentary exactly as publishing sends it to LinkedIn (functions/src/adapters/integrations/
 * linkedin-publish.ts): the post's text trimmed, escaped for the little format and fitted to 3000
 * characters. The editor's LinkedIn preview shows this same string as LinkedIn reads it
 * (littleTextSegments), so the card and the post cannot differ.
 */
export function linkedInCommentary(text: string, options: LittleTextOptions = {}): string {
  return fitLinkedInCommentary(text.trim(), LINKEDIN_COMMENTARY_MAX, options);
}

/** A run of the commentary as LinkedIn shows it: plain text, or a hashtag (shown as a link). */
export type LittleSegment = { kind: 'text'; text: string } | { kind: 'hashtag'; text: string };

/**
 * Reads little text back the way LinkedIn shows it: `\x` is the character x, and an unescaped `#`
 * followed by letters, digits or marks is a hashtag (the `#` and that run). Everything else is text.
 * escapeLittleText leaves a `#` unescaped only where it starts a hashtag, so this is its inverse.
 */
export function littleTextSegments(commentary: string): LittleSegment[] {
  const segments: LittleSegment[] = [];
  const pushText = (text: string) => {
    const last = segments.at(-1);
    if (last?.kind === 'text') last.text += text;
    else segments.push({ kind: 'text', text });
  };
  const chars = [...commentary];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\\' && i + 1 < chars.length) {
      pushText(chars[++i]!);
      continue;
    }
    if (ch === '#') {
      let end = i + 1;
      while (end < chars.length && TAG_CHAR().test(chars[end]!)) end++;
      if (end > i + 1) {
        segments.push({ kind: 'hashtag', text: chars.slice(i, end).join('') });
        i = end - 1;
        continue;
      }
    }
    pushText(ch);
  }
  return segments;
}

/**
 * Where LinkedIn's feed folds a post behind "…see more" (docs/integrations.md, LinkedIn, "Preview"):
 * it shows about the first three lines, or about 210 characters of a long paragraph, whichever comes first.
 */
export const LINKEDIN_FEED_FOLD = { lines: 3, characters: 210 } as const;

/**
 * The part of a post the feed shows before "…see more": `visible` is empty-free segments up to the
 * fold (trailing whitespace dropped), `folded` false when the whole post shows. The cut is at the end
 * of the third line or at the 210th character, moved back to the last space before it when that keeps
 * at least 80% of the line, and never inside a hashtag.
 */
export function foldLinkedInPost(
  segments: LittleSegment[],
  rule: { lines: number; characters: number } = LINKEDIN_FEED_FOLD,
): { visible: LittleSegment[]; folded: boolean } {
  const text = segments.map((s) => s.text).join('');
  let cut = text.length;
  // the end of the allowed lines
  for (let line = 1, at = text.indexOf('\n'); at !== -1; line++, at = text.indexOf('\n', at + 1)) {
    if (line === rule.lines) {
      cut = at;
      break;
    }
  }
  if (cut > rule.characters) {
    cut = rule.characters;
    const lineStart = text.lastIndexOf('\n', cut - 1) + 1;
    const space = text.slice(0, cut + 1).search(/\s\S*$/);
    if (space > lineStart && space - lineStart >= (cut - lineStart) * 0.8) cut = space;
  }
  if (cut >= text.trimEnd().length) return { visible: segments, folded: false };

  const visible: LittleSegment[] = [];
  let offset = 0;
  for (const segment of segments) {
    const end = offset + segment.text.length;
    if (end <= cut) visible.push({ ...segment });
    else if (segment.kind === 'text' && offset < cut)
      visible.push({ kind: 'text', text: segment.text.slice(0, cut - offset) });
    if (end >= cut) break;
    offset = end;
  }
  const last = visible.at(-1);
  if (last?.kind === 'text') {
    last.text = last.text.trimEnd();
    if (!last.text) visible.pop();
  }
  return { visible, folded: true };
}

/** Who a post goes out as, as far as the LinkedIn connection tells (LinkedInStatus's fields of the same names). */
export interface LinkedInIdentity {
  connected: boolean;
  memberName: string | null;
  pageName?: string | null;
}

/** The author line of the post card: a name, what it is, and initials (empty: the neutral placeholder is shown). */
export interface LinkedInPostAuthor {
  name: string;
  detail: string;
  initials: string;
  /** What the placeholder shows when there are no initials: a person, or a page's building. */
  placeholder: 'person' | 'page';
}

/** Up to two initials of a name, for the avatar. */
const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join('');

/**
 * The author a post goes out as: the connected member, or (company mode) the page publishing picks
 * (functions/src/domain/publishing.ts posts as the first page the member administers; its name is looked up on
 * connecting with page access, else not known). The editor's card and the approval e-mail and page show it.
 */
export function linkedInPostAuthor(
  identity: LinkedInIdentity | undefined,
  mode: 'personal' | 'company',
): LinkedInPostAuthor {
  if (!identity?.connected)
    return { name: 'LinkedIn member', detail: 'Connect LinkedIn in Settings', initials: '', placeholder: 'person' };
  if (mode === 'company')
    return {
      name: identity.pageName || 'Your LinkedIn Page',
      detail: 'A page you administer',
      initials: identity.pageName ? initialsOf(identity.pageName) : '',
      placeholder: 'page',
    };
  return {
    name: identity.memberName || 'LinkedIn member',
    detail: 'Your profile',
    initials: identity.memberName ? initialsOf(identity.memberName) : '',
    placeholder: 'person',
  };
}
