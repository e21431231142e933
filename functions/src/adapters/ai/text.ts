/**
 * Text helpers shared by the OpenAI and offline generators: LinkedIn length fitting, hashtags,
 * sentence splitting. Pure functions, no I/O.
 */
import { LINKEDIN_MAX_CHARS, lazyRegExp } from '@app/shared';
import type { ArticleBrief } from '../../domain/ai.js';

// Expressions with Unicode property escapes (\p{L}) are built with new RegExp, not written as literals:
// a literal costs every Lambda cold start, used or not (shared/src/unicode-regexp.ts).

/** What we ask the model for, leaving room under LINKEDIN_MAX_CHARS for its miscounting. */
export const LINKEDIN_TARGET_CHARS = 2800;

const MAX_HASHTAGS = 5;

/** A line that holds nothing but hashtags, e.g. "#ContentAutomation #AI". */
const HASHTAG_LINE = lazyRegExp(String.raw`^(?:#[\p{L}\p{N}_]+[ \t]*)+$`, 'u');

/** The marker that opens a list item: "- ", "* ", "• ", "1. ", "2) ". */
export const LIST_ITEM = /^\s*(?:[-*\u2022\u2023\u25AA]|\d+[.)])\s+/;

/**
 * `keyword` and `tags` as CamelCase hashtags: "content automation" → "#ContentAutomation", "AI" → "#AI".
 * Case-insensitively deduplicated, purely numeric ones dropped (LinkedIn does not link them), at most 5.
 */
export function hashtagsFor(words: readonly string[], max = MAX_HASHTAGS): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of words) {
    const tag = toHashtag(word);
    if (!tag) continue;
    const k = tag.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(tag);
    if (out.length >= max) break;
  }
  return out;
}

export function toHashtag(word: string): string | undefined {
  const parts = word
    .normalize('NFC')
    .split(new RegExp(String.raw`[^\p{L}\p{N}]+`, 'u'))
    .filter(Boolean);
  const body = parts.map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');
  if (!body || new RegExp(String.raw`^\p{N}+$`, 'u').test(body)) return undefined;
  return `#${body}`;
}

export function briefHashtags(brief: ArticleBrief): string[] {
  return hashtagsFor([brief.keyword, ...brief.tags]);
}

/** Splits prose into sentences; keeps the end punctuation with each sentence. */
export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .split(new RegExp(String.raw`(?<=[.!?\u2026])\s+(?=["\u201C'\u2018([]?[\p{Lu}\p{N}])`, 'u'))
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Shortens `text` to at most `max` characters (UTF-16 units, which never undercounts what LinkedIn
 * shows) at the latest paragraph or sentence boundary that keeps most of the text, else at a line or
 * word boundary with an ellipsis. Never cuts inside a word. A trailing block of hashtags is kept.
 */
export function fitToLength(text: string, max: number = LINKEDIN_MAX_CHARS): string {
  const clean = text.replace(/\r\n?/g, '\n').trim();
  if (clean.length <= max) return clean;

  const { body, tags } = splitTrailingHashtags(clean);
  if (tags && tags.length <= max / 4) {
    const budget = max - tags.length - 2;
    if (budget > 0) return `${cutAtBoundary(body, budget)}\n\n${tags}`;
  }
  return cutAtBoundary(clean, max);
}

/** `text` without its last paragraph when that paragraph is only hashtags. */
export function splitTrailingHashtags(text: string): { body: string; tags?: string } {
  const trimmed = text.trimEnd();
  const at = trimmed.lastIndexOf('\n\n');
  const last = (at >= 0 ? trimmed.slice(at + 2) : trimmed).trim();
  const lines = last.split('\n').map((l) => l.trim());
  if (at < 0 || !last || !lines.every((l) => HASHTAG_LINE().test(l))) return { body: trimmed };
  return { body: trimmed.slice(0, at).trimEnd(), tags: lines.join(' ') };
}

/** Cuts `text` (longer than `max`) at the best boundary at or before `max`. */
function cutAtBoundary(text: string, max: number): string {
  if (text.length <= max) return text;
  const window = text.slice(0, max + 1); // +1: a boundary right after the last allowed char counts
  // Only accept a structural boundary that keeps a fair share of the allowed length.
  const floor = Math.floor(max * 0.5);

  const para = window.lastIndexOf('\n\n');
  // Sentence ends: . ! ? … optionally followed by a closing quote/bracket, then whitespace.
  let sentenceEnd = -1;
  for (const m of window.matchAll(/[.!?\u2026]["\u201D\u2019')\]]*(?=\s)/gu)) {
    const end = m.index + m[0].length;
    if (end <= max) sentenceEnd = end;
  }
  const best = Math.max(para, sentenceEnd);
  if (best >= floor) return text.slice(0, best).trimEnd();

  const line = window.lastIndexOf('\n');
  if (line >= floor) return text.slice(0, line).trimEnd();

  // Word boundary with an ellipsis (one char), so the cut shows.
  return clipAtWord(text, max);
}

/** `s` cut to at most `max` chars at a word boundary, ending in "…" (a hard cut only for one giant word). */
function clipAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, max - 1);
  if (!/\s/.test(head)) return `${head.replace(/[\uD800-\uDBFF]$/, '')}…`;
  const cut = /\s/.test(s.charAt(max - 1)) ? head : head.replace(/\s+\S*$/, '');
  return `${cut.replace(/[\s,;:.\u2013\u2014-]+$/u, '')}…`;
}

/** Drops a ``` fence the model sometimes wraps its whole answer in. */
export function stripCodeFence(text: string): string {
  const m = text.trim().match(/^```[\w-]*\n([\s\S]*?)\n```$/);
  return (m ? m[1]! : text).trim();
}

/** Lower-cases the first letter unless the first word looks like a name or acronym (AI, WordPress). */
export function lowerFirst(s: string): string {
  const first = s.split(/\s/, 1)[0] ?? '';
  if (
    new RegExp(String.raw`^\p{Lu}[\p{Lu}\p{N}]+$`, 'u').test(first) ||
    new RegExp(String.raw`^.\p{Ll}*\p{Lu}`, 'u').test(first)
  )
    return s;
  return s.charAt(0).toLowerCase() + s.slice(1);
}

export function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Shortens a one-line string to at most `max` characters at a word boundary, adding "…". */
export function clip(s: string, max: number): string {
  return clipAtWord(s.replace(/\s+/g, ' ').trim(), max);
}
