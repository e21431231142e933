import type { ArticleRecord } from '../../src/domain/articles.js';

const AT = '2026-01-01T00:00:00.000Z';

/**
 * A stored article for tests that build one by hand (domain tests with fake stores, store tests):
 * drafted, nothing scheduled or published, no image; `changes` override any field.
 */
export const articleRecord = (changes: Partial<ArticleRecord> = {}): ArticleRecord => ({
  id: 'a1',
  userId: 'u1',
  title: 'T',
  topic: 'topic',
  keyword: 'k',
  details: 'd',
  imageDescription: '',
  tags: [],
  createdAt: AT,
  updatedAt: AT,
  blog: { content: 'Blog text', publishedToWordPress: false, lastPublished: null, wordpressPostUrl: null },
  linkedin: { content: 'LinkedIn text', publishedToLinkedIn: false, lastPublished: null, linkedinPostUrl: null },
  scheduled: { blog: null, linkedin: null },
  lastError: null,
  linkedInMode: 'personal',
  generation: { status: 'done', updatedAt: AT },
  image: null,
  imageJob: null,
  ...changes,
});
