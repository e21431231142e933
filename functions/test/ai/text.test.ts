import { describe, expect, it } from 'vitest';
import { LINKEDIN_MAX_CHARS } from '@app/shared';
import { fitToLength, hashtagsFor, sentences, stripCodeFence } from '../../src/adapters/ai/text.js';

describe('fitToLength', () => {
  it('leaves text that fits alone (apart from trimming)', () => {
    expect(fitToLength('  Short post.\n\n#AI  ')).toBe('Short post.\n\n#AI');
    const exact = 'x'.repeat(LINKEDIN_MAX_CHARS);
    expect(fitToLength(exact)).toBe(exact);
  });

  it('cuts at the last paragraph or sentence end that fits', () => {
    const para = `${'A'.repeat(60)}.\n\n${'B'.repeat(30)}. ${'C'.repeat(30)}.`;
    expect(fitToLength(para, 100)).toBe(`${'A'.repeat(60)}.\n\n${'B'.repeat(30)}.`);
    expect(fitToLength('First sentence here. Second one is here! Third sentence is long enough to drop.', 45)).toBe(
      'First sentence here. Second one is here!',
    );
  });

  it('falls back to a word boundary with an ellipsis, never cutting a word', () => {
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
    const out = fitToLength(words, 30);
    expect(out.length).toBeLessThanOrEqual(30);
    expect(out).toBe('alpha beta gamma delta…'); // "…epsilon" + "…" would be 31
    expect(words.startsWith(out.slice(0, -1))).toBe(true);
  });

  it('keeps a trailing hashtag line and cuts the body before it', () => {
    const body = Array.from({ length: 80 }, (_, i) => `Sentence ${i} is about publishing.`).join(' ');
    const out = fitToLength(`${body}\n\n#Publishing #AI`, 500);
    expect(out.length).toBeLessThanOrEqual(500);
    expect(out.endsWith('publishing.\n\n#Publishing #AI')).toBe(true);
  });

  it('hard-cuts only a single gigantic word, without splitting a surrogate pair', () => {
    const out = fitToLength('😀'.repeat(100), 51);
    expect(out.length).toBeLessThanOrEqual(51);
    expect(out.endsWith('…')).toBe(true);
    expect(out).not.toMatch(/[\uD800-\uDBFF]…$/);
  });
});

describe('hashtagsFor', () => {
  it('CamelCases, deduplicates case-insensitively, skips empty and numeric ones, and stops at five', () => {
    expect(
      hashtagsFor(['content automation', 'AI', 'ai', 'e-commerce', '2026', '', '  ', 'social media', 'seo', 'more']),
    ).toEqual(['#ContentAutomation', '#AI', '#ECommerce', '#SocialMedia', '#Seo']);
  });
});

describe('helpers', () => {
  it('splits sentences and strips a code fence around the whole answer', () => {
    expect(sentences('One. Two! "Three?" four. 5 stays.')).toEqual(['One.', 'Two!', '"Three?" four.', '5 stays.']);
    expect(stripCodeFence('```markdown\n# Title\n\nBody\n```')).toBe('# Title\n\nBody');
    expect(stripCodeFence('Text with ```code``` inside')).toBe('Text with ```code``` inside');
  });
});
