import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LINKEDIN_MAX_CHARS } from '@app/shared';
import { AiError, type ArticleBrief } from '../../src/domain/ai.js';
import { cardSvg, escapeXml, wrap } from '../../src/adapters/ai/offline/card.js';
import {
  OFFLINE_BLOG_MARKER,
  OFFLINE_EDIT_NEEDS_KEY,
  OFFLINE_LINKEDIN_MARKER,
  OfflineContentGenerator,
  OfflineImageGenerator,
} from '../../src/adapters/ai/offline/index.js';

const brief: ArticleBrief = {
  title: 'How Small Teams Automate Publishing',
  topic: 'Content automation for small marketing teams',
  keyword: 'content automation',
  details:
    'Explain why scheduling matters. Show how AI drafts save time. Most teams spend hours every week copying text between tools. Cover approval workflows.',
  imageDescription: 'A calm desk with a laptop showing a content calendar',
  tags: ['marketing', 'Marketing', 'AI', 'content automation', 'social media', 'SEO tips', 'growth'],
};

const gen = new OfflineContentGenerator();
const h2s = (md: string) =>
  md
    .split('\n')
    .filter((l) => l.startsWith('## '))
    .map((l) => l.slice(3));

describe('OfflineContentGenerator blog drafts', () => {
  it('is a structured Markdown article built from the brief, plainly marked as offline', async () => {
    const md = await gen.draft(brief, 'blog');
    const blocks = md.split('\n\n');

    expect(gen.kind).toBe('offline');
    // The title is the post's own title: the text neither starts with it nor has any H1.
    expect(blocks[0]).toBe(OFFLINE_BLOG_MARKER);
    expect(md).not.toMatch(/^# /m);
    expect(md).not.toContain(brief.title);
    expect(blocks[1]).toContain(lower(brief.topic)); // intro from topic and keyword
    expect(blocks[1]).toContain(brief.keyword);
    expect(h2s(md)).toEqual([
      'Why scheduling matters',
      'How AI drafts save time',
      'Most teams spend hours every week copying text between tools',
      'Approval workflows',
      'Key points',
      'Conclusion',
      'Your next step',
    ]);
    expect(md).toContain('- Why scheduling matters\n- How AI drafts save time');
    expect(md).toMatch(/Ready to put content automation into practice\?/); // call to action
    expect(md).not.toMatch(/## Most teams[^\n]*\n\nMost teams/); // a statement heading is not repeated below itself
  });

  it('falls back to sensible sections around the topic when there are no details', async () => {
    const md = await gen.draft({ ...brief, details: '   ' }, 'blog');
    const sections = h2s(md);
    expect(sections).toHaveLength(6);
    expect(sections[0]).toBe(`Why ${lower(brief.topic)} matters`);
    expect(sections[1]).toBe(`Getting started with ${brief.keyword}`);
    expect(md).toContain(OFFLINE_BLOG_MARKER);
  });

  it('a topic that already asks why is its own first heading (no "Why why … matters")', async () => {
    const md = await gen.draft({ ...brief, topic: 'Why compilers matter.', details: '' }, 'blog');
    expect(h2s(md)[0]).toBe('Why compilers matter');
    expect(md).not.toMatch(/why why/i);
  });

  it('groups many detail points into four sections and reads lists line by line', async () => {
    const details = [
      '- Plan the calendar',
      '- Write drafts early',
      '- Review with the team',
      '- Schedule posts',
      '- Measure results',
      '- Repeat monthly',
    ].join('\n');
    const sections = h2s(await gen.draft({ ...brief, details }, 'blog'));
    expect(sections.slice(0, 4)).toEqual([
      'Plan the calendar',
      'Review with the team',
      'Measure results',
      'Repeat monthly',
    ]);
  });

  it('is deterministic for the same brief and changes with it', async () => {
    expect(await gen.draft(brief, 'blog')).toBe(await gen.draft({ ...brief, tags: [...brief.tags] }, 'blog'));
    expect(await gen.draft(brief, 'linkedin')).toBe(await gen.draft({ ...brief }, 'linkedin'));
    expect(await gen.draft({ ...brief, keyword: 'workflow design' }, 'blog')).not.toBe(await gen.draft(brief, 'blog'));
  });
});

describe('OfflineContentGenerator LinkedIn drafts', () => {
  it('has a marker, a hook, short paragraphs, bullets, a call to action and CamelCase hashtags', async () => {
    const post = await gen.draft(brief, 'linkedin');
    const blocks = post.split('\n\n');

    expect(blocks[0]).toBe(OFFLINE_LINKEDIN_MARKER);
    expect(blocks[1]).toContain(brief.title); // the hook
    expect(post).toContain(brief.keyword);
    expect(post).toMatch(/\n• Why scheduling matters\n/);
    expect(post).toMatch(/Share your experience in the comments\./);
    expect(post).not.toMatch(/^#{1,6} /m); // no Markdown headings
    expect(blocks.at(-1)).toBe('#ContentAutomation #Marketing #AI #SocialMedia #SEOTips'); // deduplicated, at most 5
    expect(post.length).toBeLessThanOrEqual(LINKEDIN_MAX_CHARS);
  });

  it('stays within 3,000 characters whatever the brief holds', async () => {
    const huge: ArticleBrief = {
      ...brief,
      title: 'Very long title '.repeat(40),
      topic: 'An endless topic '.repeat(60),
      details: Array.from(
        { length: 200 },
        (_, i) => `Point ${i} is a statement about something quite specific and long.`,
      ).join(' '),
      tags: Array.from({ length: 50 }, (_, i) => `tag number ${i}`),
    };
    const post = await gen.draft(huge, 'linkedin');
    expect(post.length).toBeLessThanOrEqual(LINKEDIN_MAX_CHARS);
    expect(post.split('\n\n').at(-1)!.split(' ')).toHaveLength(5);
  });

  it('drops hashtags that would be empty or only digits', async () => {
    const post = await gen.draft({ ...brief, keyword: '2026', tags: ['!!!', '42', 'web dev'] }, 'linkedin');
    expect(post.split('\n\n').at(-1)).toBe('#WebDev');
  });
});

describe('OfflineContentGenerator edits', () => {
  const edit = (content: string, request: string, platform: 'blog' | 'linkedin' = 'linkedin') =>
    gen.edit({ brief, platform, content, request });

  it('shortens to the first sentence of each paragraph and three list items, keeping headings and hashtags', async () => {
    const md = await gen.draft(brief, 'blog');
    const short = await edit(md, 'Please make it shorter', 'blog');
    expect(short.length).toBeLessThan(md.length);
    expect(h2s(short)).toEqual(h2s(md));
    expect(short).toContain(OFFLINE_BLOG_MARKER);
    expect(short).toContain('- Why scheduling matters\n- How AI drafts save time\n- Most teams');
    expect(short).not.toContain('- Approval workflows');

    const post = await gen.draft(brief, 'linkedin');
    const shortPost = await edit(post, 'shorten');
    expect(shortPost.length).toBeLessThan(post.length);
    expect(shortPost.startsWith(OFFLINE_LINKEDIN_MARKER)).toBe(true);
    expect(shortPost.split('\n\n').at(-1)).toBe(post.split('\n\n').at(-1));
  });

  it('adds hashtags to the hashtag line without duplicates, and removes them', async () => {
    const post = 'Hook line.\n\nBody text.\n\n#AI #Marketing';
    expect(await edit(post, 'add hashtags growth hacking, ai and #DevOps')).toBe(
      'Hook line.\n\nBody text.\n\n#AI #Marketing #GrowthHacking #DevOps',
    );
    expect(await edit('Hook line.', 'add hashtags')).toBe(
      'Hook line.\n\n#ContentAutomation #Marketing #AI #SocialMedia #SEOTips',
    );
    expect(await edit('Hook line about #AI.\n\n#AI #Marketing', 'remove the hashtags')).toBe('Hook line about AI.');
  });

  it("keeps the person's hashtags as they typed them: only a phrase of several words is joined in CamelCase", async () => {
    const post = 'Hook line.\n\nBody text.\n\n#marketing';
    expect(await edit(post, 'add #devOps and #iOS')).toBe('Hook line.\n\nBody text.\n\n#marketing #devOps #iOS');
    expect(await edit(post, 'add hashtags ai, growth hacking and #eBay')).toBe(
      'Hook line.\n\nBody text.\n\n#marketing #ai #GrowthHacking #eBay',
    );
    // The same tag in another case is not added twice, and the one in the text keeps its spelling.
    await expect(edit(post, 'add #Marketing')).rejects.toMatchObject({ code: 'ai_unavailable' });
  });

  it('replaces quoted text and refuses when it is not there', async () => {
    expect(await edit('We love small teams. Small Teams rock.', 'replace "small teams" with "startups"')).toBe(
      'We love startups. Small Teams rock.',
    );
    expect(await edit('Big Teams rock.', 'replace "big teams" with "startups"')).toBe('startups rock.');
    await expect(edit('Nothing here.', 'replace "missing" with "x"')).rejects.toMatchObject({
      code: 'edit_not_applicable',
    });
  });

  it('refuses requests that need a language model, even when part of them could be done', async () => {
    for (const request of [
      'Make it more formal',
      'shorter and more casual',
      'Translate to French',
      'Rewrite the intro',
    ]) {
      const err = await edit('Some text. More text.', request).catch((e: unknown) => e);
      expect(err, request).toBeInstanceOf(AiError);
      expect((err as AiError).message).toBe(OFFLINE_EDIT_NEEDS_KEY);
      expect((err as AiError).code).toBe('ai_unavailable');
    }
  });

  it('says so when the request changes nothing, and keeps LinkedIn edits within 3,000 characters', async () => {
    await expect(edit('One sentence only.', 'shorter')).rejects.toMatchObject({ code: 'ai_unavailable' });
    const long = `${'Word '.repeat(700)}end.\n\n${'More words here. '.repeat(100)}`;
    const out = await edit(long, 'add hashtag Growth');
    expect(out.length).toBeLessThanOrEqual(LINKEDIN_MAX_CHARS);
    expect(out.endsWith('#Growth')).toBe(true);
  });
});

describe('OfflineImageGenerator', () => {
  it('renders a branded PNG card at exactly 1200×800 and 1200×627', async () => {
    const images = new OfflineImageGenerator();
    const out = await images.generate({ brief, description: 'A calm desk' });
    expect(images.kind).toBe('offline');
    expect(out.contentType).toBe('image/png');
    const blog = await sharp(out.blog).metadata();
    const linkedin = await sharp(out.linkedin).metadata();
    expect([blog.format, blog.width, blog.height]).toEqual(['png', 1200, 800]);
    expect([linkedin.format, linkedin.width, linkedin.height]).toEqual(['png', 1200, 627]);
    const { channels } = await sharp(out.blog).stats();
    expect(channels[0]!.max - channels[0]!.min).toBeGreaterThan(50); // a gradient and text, not a blank image
  });

  it('survives XML-hostile and enormous input', async () => {
    const hostile: ArticleBrief = {
      ...brief,
      title: `<script>&"'</script> ${'Supercalifragilisticexpialidocious'.repeat(8)} \u0001 title`,
      keyword: '</text><text>',
    };
    const out = await new OfflineImageGenerator().generate({ brief: hostile, description: 'x & y < z '.repeat(300) });
    expect((await sharp(out.linkedin).metadata()).height).toBe(627);
    const svg = cardSvg({ title: hostile.title, subtitle: 'a & b', label: hostile.keyword }, 1200, 627);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;&amp;&quot;&apos;&lt;/script&gt;');
    expect(svg).toContain('&lt;/TEXT&gt;&lt;TEXT&gt;');
    expect(svg).not.toContain('\u0001');
  });

  it('wraps text to whole words over a limited number of lines', () => {
    expect(wrap('one two three four five', 9, 3)).toEqual({
      lines: ['one two', 'three', 'four five'],
      truncated: false,
    });
    const cut = wrap('one two three four five six seven', 9, 2);
    expect(cut.truncated).toBe(true);
    expect(cut.lines).toHaveLength(2);
    expect(cut.lines[1]!.endsWith('…')).toBe(true);
    expect(cut.lines.every((l) => l.length <= 9)).toBe(true);
    expect(escapeXml(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });
});

function lower(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
