import { describe, expect, it } from 'vitest';
import {
  escapeLittleText,
  fitLinkedInCommentary,
  foldLinkedInPost,
  LINKEDIN_FEED_FOLD,
  linkedInCommentary,
  littleTextSegments,
  LITTLE_RESERVED_CHARACTERS,
  type LittleSegment,
} from '../src/little-text.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** true when every reserved character of `text` is escaped (kept hashtag "#" excepted). */
function wellEscaped(text: string, keepHashtags = true): boolean {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      if (!(LITTLE_RESERVED_CHARACTERS as readonly string[]).includes(text[i + 1] ?? '')) return false;
      i++;
      continue;
    }
    if (ch === '#' && keepHashtags && /[\p{L}\p{N}]/u.test(text[i + 1] ?? '')) continue;
    if ((LITTLE_RESERVED_CHARACTERS as readonly string[]).includes(ch)) return false;
  }
  return true;
}

describe('escapeLittleText', () => {
  it.each(LITTLE_RESERVED_CHARACTERS.map((c) => [c]))('escapes %s with a backslash', (c) => {
    expect(escapeLittleText(c)).toBe(`\\${c}`);
    expect(escapeLittleText(`a ${c} b`)).toBe(`a \\${c} b`);
  });

  it.each([
    ['plain text, äöü and emoji 🚀 stay as they are', 'plain text, äöü and emoji 🚀 stay as they are'],
    ['Hello #world', 'Hello #world'],
    ['#AI at the start', '#AI at the start'],
    ['tags: #one,#two (#three)', 'tags: #one,#two \\(#three\\)'],
    ['#café and #München', '#café and #München'],
    ['🚀#launch', '🚀#launch'],
    ['#machine_learning', '#machine\\_learning'],
    ['#2024goals', '#2024goals'],
    ['C# and F#', 'C\\# and F\\#'],
    ['#1 priority', '\\#1 priority'],
    ['a#b', 'a\\#b'],
    ['##double', '\\#\\#double'],
    ['# heading', '\\# heading'],
    ['mail me@example.com', 'mail me\\@example.com'],
    ['@[Eddy](urn:li:person:1234)', '\\@\\[Eddy\\]\\(urn:li:person:1234\\)'],
    ['a\\b', 'a\\\\b'],
    ['<b>*bold*</b> _x_ ~y~ {z} |w|', '\\<b\\>\\*bold\\*\\</b\\> \\_x\\_ \\~y\\~ \\{z\\} \\|w\\|'],
    ['line one\nline two #tag', 'line one\nline two #tag'],
  ])('%j → %j', (input, expected) => {
    expect(escapeLittleText(input)).toBe(expected);
    expect(wellEscaped(escapeLittleText(input))).toBe(true);
  });

  it('keepHashtags: false escapes every #', () => {
    expect(escapeLittleText('Hello #world', { keepHashtags: false })).toBe('Hello \\#world');
  });
});

describe('fitLinkedInCommentary', () => {
  it('returns short text escaped and otherwise unchanged', () => {
    expect(fitLinkedInCommentary('Hi (there) #tag')).toBe('Hi \\(there\\) #tag');
  });

  it('text that is exactly 3000 characters once escaped is not cut', () => {
    const text = `${'x'.repeat(2998)}()`.slice(0, 2998); // 2998 plain
    const exact = `${text}_`; // 2998 + 2 escaped = 3000
    expect(fitLinkedInCommentary(exact)).toBe(`${text}\\_`);
  });

  it.each([
    ['words', 'word '.repeat(1000)],
    ['reserved characters', '(a) '.repeat(1000)],
    ['only reserved characters', '()'.repeat(2000)],
    ['hashtags', '#tag '.repeat(1000)],
    ['emoji (surrogate pairs)', '😀'.repeat(2000)],
    ['backslashes', '\\'.repeat(4000)],
    ['one long word', 'x'.repeat(5000)],
  ])('%s: the escaped result is ≤ 3000, well escaped, ends with …', (_name, text) => {
    const fitted = fitLinkedInCommentary(text);
    expect(fitted.length).toBeLessThanOrEqual(3000);
    expect(fitted.length).toBeGreaterThan(2400);
    expect(fitted.endsWith('…')).toBe(true);
    expect(LONE_SURROGATE.test(fitted)).toBe(false);
    expect(wellEscaped(fitted.slice(0, -1))).toBe(true);
  });

  it('cuts at a word boundary', () => {
    const fitted = fitLinkedInCommentary('word '.repeat(1000));
    expect(fitted).toMatch(/ word…$/);
  });

  it('honours a smaller limit; a word boundary is used only when it keeps most of the text', () => {
    expect(fitLinkedInCommentary('Hello (big) world, how are you', 12)).toBe('Hello \\(big…');
    expect(fitLinkedInCommentary('Hello (big) world, how are you', 14)).toBe('Hello \\(big\\)…');
    expect(fitLinkedInCommentary('Hello (big) world, how are you', 18)).toBe('Hello \\(big\\) wor…');
    expect(fitLinkedInCommentary('Hello (big) world, how are you', 1)).toBe('…');
  });
});

describe('linkedInCommentary: the commentary as publishing sends it', () => {
  it('trims, escapes and keeps hashtags', () => {
    expect(linkedInCommentary('  Ship it (today) @team #Launch \n\n')).toBe('Ship it \\(today\\) \\@team #Launch');
  });

  it('fits the escaped text to 3000 characters', () => {
    const sent = linkedInCommentary(`${'(x) '.repeat(900)}end`);
    expect(sent.length).toBeLessThanOrEqual(3000);
    expect(sent.endsWith('…')).toBe(true);
  });

  it('escapes every # when hashtags are not kept', () => {
    expect(linkedInCommentary('#Launch', { keepHashtags: false })).toBe('\\#Launch');
  });
});

/** The text a reader sees, hashtags included. */
const shown = (segments: LittleSegment[]) => segments.map((s) => s.text).join('');
const hashtags = (segments: LittleSegment[]) => segments.filter((s) => s.kind === 'hashtag').map((s) => s.text);

describe('littleTextSegments: the commentary as LinkedIn shows it', () => {
  it.each([
    'Plain text, nothing reserved.',
    'Ship it (today) — thanks to @team! #Launch',
    'C# and a#b and ##x and #1 priority, #2024 and #AI2025',
    'Backslash \\ [link](x) {b} <i> *bold* _u_ ~s~ | pipe',
    '#machine_learning #Über #日本語 café\n\nline',
    '😀 #emoji 😀',
  ])('reads back exactly the text that was escaped: %s', (text) => {
    expect(shown(littleTextSegments(linkedInCommentary(text)))).toBe(text.trim());
  });

  it('shows the hashtags LinkedIn links, and only those', () => {
    const segments = littleTextSegments(linkedInCommentary('Hello #World, C# is #1 and #machine_learning #Über'));
    expect(hashtags(segments)).toEqual(['#World', '#machine', '#Über']);
    expect(segments[0]).toEqual({ kind: 'text', text: 'Hello ' });
  });

  it('a hashtag is plain text when every # is escaped', () => {
    expect(hashtags(littleTextSegments(linkedInCommentary('#Launch', { keepHashtags: false })))).toEqual([]);
  });

  it('empty text has no segments', () => {
    expect(littleTextSegments('')).toEqual([]);
  });
});

describe('foldLinkedInPost: what the feed shows before "…see more"', () => {
  const fold = (text: string) => foldLinkedInPost(littleTextSegments(linkedInCommentary(text)));

  it('a short post shows whole', () => {
    expect(fold('One line.\nTwo.\nThree.')).toEqual({
      visible: littleTextSegments('One line.\nTwo.\nThree.'),
      folded: false,
    });
  });

  it('folds after the third line', () => {
    const { visible, folded } = fold('One.\nTwo.\n\nFour.');
    expect(folded).toBe(true);
    expect(shown(visible)).toBe('One.\nTwo.');
  });

  it(`folds a long paragraph at a word near ${LINKEDIN_FEED_FOLD.characters} characters`, () => {
    const text = 'word '.repeat(100);
    const { visible, folded } = fold(text);
    expect(folded).toBe(true);
    const seen = shown(visible);
    expect(seen.length).toBeLessThanOrEqual(LINKEDIN_FEED_FOLD.characters);
    expect(seen.length).toBeGreaterThan(LINKEDIN_FEED_FOLD.characters * 0.8);
    expect(seen).toMatch(/word$/);
    expect(text.startsWith(seen)).toBe(true);
  });

  it('a long word is cut at the character limit', () => {
    const { visible } = fold('x'.repeat(500));
    expect(shown(visible)).toBe('x'.repeat(LINKEDIN_FEED_FOLD.characters));
  });

  it('never cuts inside a hashtag', () => {
    const text = `${'a'.repeat(205)} #hashtagging more text after it`;
    const { visible, folded } = fold(text);
    expect(folded).toBe(true);
    expect(shown(visible)).toBe('a'.repeat(205));
    expect(hashtags(visible)).toEqual([]);
    const inside = `${'b'.repeat(200)}#x${'c'.repeat(50)}`; // no space to fall back to: the hashtag goes whole
    expect(hashtags(fold(inside).visible)).toEqual([]);
  });

  it('keeps the hashtags before the fold as hashtags', () => {
    const { visible } = fold('Launch day #Launch\nSecond line\nThird line\nFourth line');
    expect(hashtags(visible)).toEqual(['#Launch']);
    expect(shown(visible)).toBe('Launch day #Launch\nSecond line\nThird line');
  });

  it('does not change the segments it is given', () => {
    const segments = littleTextSegments('a '.repeat(200));
    const copy = structuredClone(segments);
    foldLinkedInPost(segments);
    expect(segments).toEqual(copy);
  });
});
