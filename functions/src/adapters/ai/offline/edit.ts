/**
 * Offline editing, used when no OpenAI key is configured. It is honest about what it can do and
 * applies requests that are mechanical:
 *   - "shorter" / "shorten" / "more concise" / "condense": keeps the first sentence of each paragraph
 *     and the first three items of each list (headings and hashtags stay);
 *   - "add hashtag(s) X, Y" (or any #Word in the request; "add hashtags" alone uses keyword and tags);
 *   - "remove hashtags"; "remove emoji(s)";
 *   - `replace "old" with "new"` (quoted, literal, every occurrence).
 * Anything else (tone, style, rewriting, translating, …) needs a language model. Rather than return
 * the text unchanged or half-applied and let the person think it worked, such a request (or any part
 * of a request that is not understood) throws AiEditNotApplied(OFFLINE_EDIT_NEEDS_KEY, 'ai_unavailable').
 */
import { LINKEDIN_MAX_CHARS } from '@app/shared';
import { AiEditNotApplied, type ArticleBrief, type Platform } from '../../../domain/ai.js';
import { briefHashtags, clip, fitToLength, LIST_ITEM, sentences, splitTrailingHashtags, toHashtag } from '../text.js';

// Expressions with Unicode property escapes (\p{L}) are built with new RegExp, not written as literals:
// a literal costs every Lambda cold start, used or not (shared/src/unicode-regexp.ts).

/** What to do for edits the offline editor cannot make. */
const OFFLINE_WAY_OUT =
  'add your OpenAI key (openai_api_key) in Settings → API Keys, or switch to Manual and edit by hand.';

/** Said for a request the offline editor cannot apply: that nothing was applied, why, and what to do. */
export const OFFLINE_EDIT_NEEDS_KEY =
  'Not applied: GPT editing is offline (no OpenAI key), and offline it can only shorten, add or remove ' +
  `hashtags, remove emoji and replace "quoted" text. To apply this request, ${OFFLINE_WAY_OUT}`;

/** Applies the mechanical edits described at the top of this file, or throws the needs-a-key error. */
export function offlineEdit(input: {
  brief: ArticleBrief;
  platform: Platform;
  content: string;
  request: string;
}): string {
  let rest = ` ${input.request.replace(/\s+/g, ' ').trim()} `;
  const ops: Array<(text: string) => string> = [];
  const take = (re: RegExp, fn: (m: RegExpExecArray) => void) => {
    rest = rest.replace(re, (...args) => {
      fn(args.slice(0, -2) as unknown as RegExpExecArray);
      return ' ';
    });
  };

  // replace "old" with "new"
  take(
    /\b(?:replace|change|swap)\s+["\u201C'\u2018]([^"\u201D'\u2019]+)["\u201D'\u2019]\s+(?:with|to|for|by|into)\s+["\u201C'\u2018]([^"\u201D'\u2019]*)["\u201D'\u2019]/gi,
    (m) => {
      const from = m[1]!;
      const to = m[2]!;
      ops.push((text) => {
        if (text.includes(from)) return text.split(from).join(to);
        const loose = new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
        if (!loose.test(text)) {
          throw new AiEditNotApplied(
            `"${clip(from, 60)}" does not appear in the text, so it could not be replaced. Check the spelling, or switch to Manual and edit by hand.`,
            'edit_not_applicable',
          );
        }
        return text.replace(loose, () => to);
      });
    },
  );
  // remove emoji
  take(/\b(?:remove|drop|delete|strip|no|without)\s+(?:the\s+|all\s+)?(?:emojis?|emoticons?)\b/gi, () =>
    ops.push((text) =>
      text
        .replace(new RegExp(String.raw`\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*`, 'gu'), '')
        .replace(/[ \t]{2,}/g, ' ')
        .replace(/ +$/gm, ''),
    ),
  );
  // remove hashtags
  let removeTags = false;
  take(/\b(?:remove|drop|delete|strip|no|without)\s+(?:the\s+|all\s+|any\s+)?hash\s?tags?\b/gi, () => {
    removeTags = true;
    ops.push(removeHashtags);
  });
  // shorter
  take(
    /\b(?:make\s+(?:it|this|the\s+\w+)\s+)?(?:(?:a\s+)?(?:bit|little|lot|much)\s+)?(?:shorter|shorten(?:\s+it)?|more\s+concise|concise|condense(?:\s+it)?|briefer|trim\s+it(?:\s+down)?|cut\s+it\s+down|reduce\s+(?:the\s+)?length)\b/gi,
    () => ops.push(shorten),
  );
  // add hashtags: "add (the) hashtag(s)[:] AI, Cloud and #DevOps"
  const added: string[] = [];
  let addTags = false;
  take(
    new RegExp(
      String.raw`\badd\s+(?:(?:the|some|a\s+few|few|these|following|more|a)\s+)*(?:hash\s?tags?|tags?)\b:?((?:\s*(?:,|&|and\b)?\s*#?(?!(?:make|shorten|remove|replace|change|add|then|and|please)\b)[\p{L}\p{N}_][\p{L}\p{N}_-]*)*)`,
      'giu',
    ),
    (m) => {
      addTags = true;
      added.push(...hashtagWords(m[1] ?? ''));
    },
  );
  // any other #Word in the request is a hashtag to add
  take(new RegExp(String.raw`(?:^|\s)#([\p{L}\p{N}_]+)`, 'gu'), (m) => {
    addTags = true;
    added.push(m[1]!);
  });
  if (addTags && !removeTags) {
    const wanted = added.length ? added : briefHashtags(input.brief); // at most 5, as in drafts
    ops.push((text) => addHashtags(text, wanted));
  }

  const leftover = rest
    .toLowerCase()
    .replace(new RegExp(String.raw`[^\p{L}\p{N}\s]`, 'gu'), ' ')
    .split(/\s+/)
    .filter((w) => w && !FILLER.has(w) && new RegExp(String.raw`\p{L}`, 'u').test(w));
  if (!ops.length || leftover.length) throw new AiEditNotApplied(OFFLINE_EDIT_NEEDS_KEY, 'ai_unavailable');

  const before = input.content.replace(/\r\n?/g, '\n').trim();
  let text = before;
  for (const op of ops) text = op(text);
  text = text.replace(/\n{3,}/g, '\n\n').trim();
  if (text === before) {
    throw new AiEditNotApplied(
      `Nothing to change offline: the text already matches the request. For other changes, ${OFFLINE_WAY_OUT}`,
      'ai_unavailable',
    );
  }
  return input.platform === 'linkedin' ? fitToLength(text, LINKEDIN_MAX_CHARS) : text;
}

/**
 * "growth hacking, ai and #DevOps" → ["growth hacking", "ai", "DevOps"]; with no commas or "and",
 * every word is its own tag: "AI Cloud" → ["AI", "Cloud"].
 */
function hashtagWords(list: string): string[] {
  const separated = /,|&|\band\b/iu.test(list);
  return list
    .split(/\s*(?:,|&|\band\b)\s*/iu)
    .flatMap((piece) => (separated && !piece.includes('#') ? [piece] : piece.split(/\s+|(?=#)/u)))
    .map((w) => w.replace(/#/g, '').trim())
    .filter(Boolean);
}

const FILLER = new Set(
  (
    'please pls kindly can could would will you make it its this that the a an post text article blog linkedin version ' +
    'content copy and also then bit little lot much too just for me thanks thank to of in i want like some way so ' +
    'both them all more please now again add'
  ).split(' '),
);

function shorten(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (
        /^\s*(?:#|>)/.test(block) ||
        /^\s*\[[^\n]*\]\s*$/.test(block) ||
        lines.every((l) => new RegExp(String.raw`^\s*#[\p{L}\p{N}_]`, 'u').test(l))
      )
        return block;
      if (lines.some((l) => LIST_ITEM.test(l))) {
        let items = 0;
        return lines.filter((l) => !LIST_ITEM.test(l) || ++items <= 3).join('\n');
      }
      return sentences(block)[0] ?? block;
    })
    .join('\n\n');
}

function removeHashtags(text: string): string {
  const { body } = splitTrailingHashtags(text);
  return body
    .split('\n')
    .filter((l) => !new RegExp(String.raw`^(?:\s*#[\p{L}\p{N}_]+)+\s*$`, 'u').test(l))
    .join('\n')
    .replace(new RegExp(String.raw`(^|[\s(])#([\p{L}\p{N}_]+)`, 'gu'), '$1$2');
}

/**
 * A hashtag the person asked for, spelt as they typed it: one word keeps its letters ("#iOS", "devOps", "ai");
 * several are joined with each one's first letter raised so the tag stays readable ("growth hacking" →
 * "#GrowthHacking"). Only tags drafted from the brief are made CamelCase (toHashtag).
 */
function typedHashtag(word: string): string | undefined {
  const parts = word
    .normalize('NFC')
    .split(new RegExp(String.raw`[^\p{L}\p{N}_]+`, 'u'))
    .filter(Boolean);
  if (parts.length === 1 && !new RegExp(String.raw`^[\p{N}_]+$`, 'u').test(parts[0]!)) return `#${parts[0]}`;
  return toHashtag(word);
}

function addHashtags(text: string, words: string[]): string {
  const { body, tags } = splitTrailingHashtags(text);
  const existing = tags ? tags.split(/\s+/) : [];
  const have = new Set(existing.map((t) => t.toLowerCase()));
  const more = words
    .map(typedHashtag)
    .filter((t): t is string => !!t && !have.has(t.toLowerCase()) && (have.add(t.toLowerCase()), true));
  if (!more.length) return text;
  return `${body}\n\n${[...existing, ...more].join(' ')}`;
}
