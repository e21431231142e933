import { describe, expect, it } from 'vitest';
import {
  escapeLittleText,
  fitLinkedInCommentary,
  LITTLE_RESERVED_CHARACTERS,
} from '../../src/adapters/integrations/little-text.js';

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
