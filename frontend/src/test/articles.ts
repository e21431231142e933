import type { Article } from '@app/shared';

/** An article as the API shows it; drafted (generation done) unless overridden. */
export function makeArticle(overrides: Partial<Article> = {}): Article {
  const id = overrides._id ?? overrides.id ?? 'a1';
  return {
    _id: id,
    id,
    title: 'Automate your content calendar',
    topic: 'How small teams plan a month of posts',
    keyword: 'content automation',
    details: 'Batch writing\nReuse ideas',
    imageDescription: 'A calm flat illustration of a calendar',
    tags: [],
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
    blog: {
      content: '# Automate\n\nBlog draft text',
      publishedToWordPress: false,
      lastPublished: null,
      wordpressPostUrl: null,
    },
    linkedin: {
      content: 'LinkedIn draft text',
      publishedToLinkedIn: false,
      lastPublished: null,
      linkedinPostUrl: null,
    },
    scheduled: { blog: null, linkedin: null },
    lastError: null,
    linkedInMode: 'personal',
    generation: { status: 'done', updatedAt: '2025-03-01T10:00:05.000Z' },
    image: null,
    ...overrides,
  };
}

export const pendingArticle = (overrides: Partial<Article> = {}) =>
  makeArticle({
    blog: { ...makeArticle().blog, content: '' },
    linkedin: { ...makeArticle().linkedin, content: '' },
    generation: { status: 'pending', updatedAt: '2025-03-01T10:00:00.000Z' },
    ...overrides,
  });
