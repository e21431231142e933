import { describe, expect, it, vi } from 'vitest';
import { EXCERPT_CHARS, articleExcerpt, plainExcerpt } from '../src/excerpt.js';
import { OFFLINE_BLOG_NOTE, OFFLINE_DRAFT_NOTE_START, OFFLINE_LINKEDIN_NOTE } from '../src/offline-draft.js';

describe('plainExcerpt', () => {
  it('gives the text without Markdown marks, on one line, leaving out a first heading that is the title', () => {
    const post = [
      '# Shipping small releases',
      '',
      'Small releases are **easier** to _review_ and [roll back](https://example.com/rollback).',
      '',
      '## Why it works',
      '',
      '- one change at a time',
      '1. fewer surprises',
      '> a quote ![diagram](https://example.com/d.png)',
    ].join('\n');
    expect(plainExcerpt(post, 'Shipping small releases')).toBe(
      'Small releases are easier to review and roll back. Why it works one change at a time fewer surprises a quote',
    );
  });

  it('keeps a first heading that is not the title, and leaves out code blocks, rules and tables', () => {
    const post = ['## Before you start', '```js', 'run()', '```', '---', '| a | b |', 'Then `npm test`.'].join('\n');
    expect(plainExcerpt(post, 'Another title')).toBe('Before you start Then npm test.');
  });

  it('leaves out the offline-draft note: the card says what the post says', () => {
    const blog = `${OFFLINE_BLOG_NOTE}\n\nThis article is about calm releases.`;
    expect(plainExcerpt(blog, 'Calm releases')).toBe('This article is about calm releases.');
    const linkedin = `${OFFLINE_LINKEDIN_NOTE}\n\nShip small, ship often.`;
    expect(plainExcerpt(linkedin)).toBe('Ship small, ship often.');
  });

  it('leaves snake_case and lone asterisks as they are', () => {
    expect(plainExcerpt('Set my_var_name to 2 * 3.', '')).toBe('Set my_var_name to 2 * 3.');
  });

  it(`cuts after a word at ${EXCERPT_CHARS} characters with "…"`, () => {
    const long = 'Word and more words. '.repeat(40);
    const excerpt = plainExcerpt(long);
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARS + 1);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(long.startsWith(excerpt.slice(0, -1))).toBe(true);
    expect(excerpt.slice(0, -1)).toMatch(/\w$/);
    // A single word longer than the excerpt is cut inside it, never inside a surrogate pair.
    // ("a" first puts the cut between the two halves of an emoji.)
    const emoji = plainExcerpt(`a${'😀'.repeat(EXCERPT_CHARS)}`);
    expect(emoji.endsWith('😀…')).toBe(true);
    expect(emoji.length).toBe(EXCERPT_CHARS);
  });

  // Every list answer computes one per article (functions/src/http/article-view.ts): the lines after a full
  // excerpt cannot change it, and reading them cost more than the rest of the list's work.
  it('reads no line after the excerpt is full, and says the same as reading them all', () => {
    const paragraph = 'A paragraph of *plain* words, with [a link](https://example.com) and __marks__. '.repeat(6);
    const opening = ['# A title', '', paragraph].join('\n');
    const text = [opening, '', ...Array.from({ length: 30 }, () => `${paragraph}\n`)].join('\n');
    /** The excerpt, and how many Markdown replacements making it took (six a line read). */
    const counted = (markdown: string) => {
      const replace = vi.spyOn(String.prototype, 'replace');
      try {
        const excerpt = plainExcerpt(markdown, 'A title');
        // (The offline-draft note's search trims a carriage return off every line of the text's start.)
        const replacements = replace.mock.calls.filter(([pattern]) => String(pattern) !== String(/\r$/)).length;
        return { excerpt, replacements };
      } finally {
        replace.mockRestore();
      }
    };
    const whole = counted(text);
    const start = counted(opening);
    // Its first paragraph fills the excerpt: the 30 after it are not read.
    expect(whole.replacements).toBeLessThanOrEqual(start.replacements);
    expect(whole.excerpt).toBe(start.excerpt);
    expect(whole.excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARS + 1);
    expect(whole.excerpt.startsWith('A paragraph of plain words, with a link and marks.')).toBe(true);
  });

  // The same for the offline-draft note's search and the cutting into lines: they used to go over the scan's
  // 4,000 characters whatever the excerpt needed, most of a list answer's work per article.
  it('looks at no line after the excerpt is full, not even for the offline-draft note', () => {
    const paragraph = 'Plain words that fill the card. '.repeat(10);
    const opening = ['# A title', '', paragraph].join('\n');
    const text = [opening, ...Array.from({ length: 60 }, () => `\n${OFFLINE_BLOG_NOTE.slice(0, 20)} more`)].join('\n');
    const counted = (markdown: string) => {
      const test = vi.spyOn(RegExp.prototype, 'test');
      const split = vi.spyOn(String.prototype, 'split');
      try {
        const excerpt = plainExcerpt(markdown, 'A title');
        return { excerpt, looks: test.mock.calls.length + split.mock.calls.length };
      } finally {
        test.mockRestore();
        split.mockRestore();
      }
    };
    const whole = counted(text);
    const start = counted(opening);
    expect(whole.excerpt).toBe(start.excerpt);
    expect(whole.looks).toBeLessThanOrEqual(start.looks);
  });

  it('leaves out a note line ended by a carriage return, and a note inside what would be a code block', () => {
    const text = `${OFFLINE_BLOG_NOTE}\r\n\r\n\`\`\`${OFFLINE_DRAFT_NOTE_START}\r\nThe post.\r\n`;
    expect(plainExcerpt(text)).toBe('The post.');
  });

  it('reads only the start of a very long text', () => {
    const huge = `${'Opening words. '.repeat(10)}${'x'.repeat(200_000)}`;
    expect(plainExcerpt(huge).startsWith('Opening words. Opening words.')).toBe(true);
  });
});

describe('articleExcerpt', () => {
  const article = (blog: string, linkedin: string, topic = 'The topic') => ({
    title: 'A title',
    topic,
    blog: { content: blog },
    linkedin: { content: linkedin },
  });

  it('takes the blog version, else the LinkedIn post, else the topic', () => {
    expect(articleExcerpt(article('# A title\n\nThe blog says this.', 'The post says that.'))).toBe(
      'The blog says this.',
    );
    expect(articleExcerpt(article('# A title\n', 'The post says that.'))).toBe('The post says that.');
    expect(articleExcerpt(article('', ''))).toBe('The topic');
    expect(articleExcerpt(article('', '', ''))).toBe('');
  });
});
