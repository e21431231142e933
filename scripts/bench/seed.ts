/**
 * Articles for `npm run bench`, written with the production article store. Sizes are those of
 * real drafts (a blog post of 3–6 KB in Markdown, a LinkedIn post of about 1 KB) and the states
 * vary like a year of use: most published somewhere, some scheduled, a few with an image or an error.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoArticleStore, indexAttributesOf } from '../../functions/src/adapters/dynamo/article-store.js';
import { newArticleId, type ArticleRecord } from '../../functions/src/domain/articles.js';

/** A small deterministic PRNG (mulberry32), so every run lists the same articles. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Words for the texts: common English words plus generated ones, drawn with a Zipf-like skew, so
 * that the texts compress about as well as real prose (gzip ≈ 3×) rather than flatteringly well.
 */
const COMMON = (
  'the of and to a in that is for it as with was on be by this are or from at an have not but ' +
  'your you we they their our can will more about which when what how one all also into than its ' +
  'content calendar audience strategy publishing workflow review draft editor schedule channel ' +
  'newsletter engagement analytics keyword search team process weekly monthly goal measure'
).split(' ');
const SYLLABLES =
  'ba ce di fo gu ha je ki lo mu na pe qui ro su ta ve wi xo ya ze bri cla dre fli gro pla sta tri vol ment tion ing er ly al'.split(
    ' ',
  );
const VOCABULARY = (() => {
  const rnd = random(42);
  const words = [...COMMON];
  while (words.length < 3000) {
    const n = 1 + Math.floor(rnd() * 3);
    words.push(Array.from({ length: n }, () => SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]).join(''));
  }
  return words;
})();
const word = (rnd: () => number) => VOCABULARY[Math.floor(VOCABULARY.length * rnd() ** 2.2)]!;

const TOPICS = [
  'Content marketing',
  'Remote teams',
  'Product launches',
  'Customer success',
  'Hiring',
  'SEO basics',
  'Data privacy',
  'Pricing',
];
const KEYWORDS = [
  'content calendar',
  'remote work',
  'launch plan',
  'onboarding',
  'interviews',
  'search ranking',
  'gdpr',
  'pricing page',
];

function sentence(rnd: () => number): string {
  const n = 8 + Math.floor(rnd() * 14);
  const words = Array.from({ length: n }, () => word(rnd));
  const s = words.join(' ');
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
}

function paragraph(rnd: () => number, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(rnd)).join(' ');
}

/** A Markdown blog post of about `bytes` bytes: title, intro, sections with a list, summary. */
function blogPost(rnd: () => number, title: string, bytes: number): string {
  const parts = [`# ${title}`, paragraph(rnd, 4)];
  let section = 1;
  while (parts.join('\n\n').length < bytes) {
    parts.push(`## ${section++}. ${sentence(rnd).slice(0, -1)}`, paragraph(rnd, 5));
    if (section % 2 === 0) parts.push(Array.from({ length: 4 }, () => `- ${sentence(rnd)}`).join('\n'));
  }
  parts.push('## Summary', paragraph(rnd, 3));
  return parts.join('\n\n');
}

function linkedInPost(rnd: () => number, keyword: string, bytes: number): string {
  const lines = [sentence(rnd)];
  while (lines.join('\n\n').length < bytes - 60) lines.push(paragraph(rnd, 2));
  lines.push(`#${keyword.replace(/\s+/g, '')} #contentmarketing #publishing`);
  return lines.join('\n\n');
}

const iso = (ms: number) => new Date(ms).toISOString();

/** One article as the service stores it (ArticleService.create, then drafted and used). */
export function benchArticle(userId: string, index: number, now = Date.now()): ArticleRecord {
  const rnd = random(index + 1);
  const created = now - (index + 1) * 17 * 3600 * 1000 - Math.floor(rnd() * 3600 * 1000);
  const topic = TOPICS[index % TOPICS.length]!;
  const keyword = KEYWORDS[index % KEYWORDS.length]!;
  const title = `${topic}: ${sentence(rnd).slice(0, 60).replace(/\.$/, '')}`;
  const blogPublished = rnd() < 0.55;
  const linkedinPublished = rnd() < 0.45;
  const scheduledPast = iso(created + 24 * 3600 * 1000);
  const scheduledFuture = iso(now + (1 + Math.floor(rnd() * 30)) * 24 * 3600 * 1000);
  const hasImage = rnd() < 0.3;
  const updated = iso(Math.min(now, created + 2 * 24 * 3600 * 1000));
  return {
    id: newArticleId(created),
    userId,
    title,
    topic,
    keyword,
    details: paragraph(rnd, 3),
    imageDescription: `An illustration about ${keyword}`,
    tags: [keyword, topic.toLowerCase()],
    createdAt: iso(created),
    updatedAt: updated,
    blog: {
      content: blogPost(rnd, title, 3000 + Math.floor(rnd() * 3000)),
      publishedToWordPress: blogPublished,
      lastPublished: blogPublished ? scheduledPast : null,
      wordpressPostUrl: blogPublished ? `https://blog.example.com/?p=${1000 + index}` : null,
    },
    linkedin: {
      content: linkedInPost(rnd, keyword, 800 + Math.floor(rnd() * 500)),
      publishedToLinkedIn: linkedinPublished,
      lastPublished: linkedinPublished ? scheduledPast : null,
      linkedinPostUrl: linkedinPublished
        ? `https://www.linkedin.com/feed/update/urn:li:share:${7000000 + index}`
        : null,
    },
    scheduled: {
      blog: blogPublished ? scheduledPast : rnd() < 0.5 ? scheduledFuture : null,
      linkedin: linkedinPublished ? scheduledPast : rnd() < 0.5 ? scheduledFuture : null,
    },
    lastError: rnd() < 0.05 ? { code: 'insufficient_quota', message: 'OpenAI credits insufficient' } : null,
    linkedInMode: rnd() < 0.8 ? 'personal' : 'company',
    generation: { status: 'done', updatedAt: updated },
    image: hasImage
      ? {
          blogKey: `users/${userId}/articles/x/${created}-blog.png`,
          linkedinKey: `users/${userId}/articles/x/${created}-linkedin.png`,
          contentType: 'image/png',
          description: `An illustration about ${keyword}`,
          generatedAt: updated,
        }
      : null,
    imageJob: hasImage ? { status: 'done', requestedAt: updated, error: null } : null,
    publishClaims: {},
  };
}

/** Writes `count` articles for the user through DynamoArticleStore.put, a few at a time. */
export async function seedArticles(
  db: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  count: number,
): Promise<ArticleRecord[]> {
  const store = new DynamoArticleStore(db, tableName);
  const now = Date.now();
  const articles = Array.from({ length: count }, (_, i) => benchArticle(userId, i, now));
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < articles.length) await store.put(articles[next++]!);
    }),
  );
  return articles;
}

/** Articles of each account that are not yet published on both platforms (`npm run bench -- scale`). */
export const SCALE_OPEN_ARTICLES = 10;

/**
 * An account's articles for `npm run bench -- scale`: the same pipeline of SCALE_OPEN_ARTICLES open
 * articles whatever the history (four drafts, three scheduled on both platforms, three published on
 * the blog with LinkedIn still scheduled), and the rest published on both platforms, their publications
 * spread evenly over the past year. The texts are benchArticle's.
 */
export function scaleArticles(userId: string, count: number, now = Date.now()): ArticleRecord[] {
  const DAY = 24 * 3600 * 1000;
  const published = count - SCALE_OPEN_ARTICLES;
  return Array.from({ length: count }, (_, index) => {
    const base = benchArticle(userId, index, now);
    const rnd = random(1_000_003 + index);
    const open = index < SCALE_OPEN_ARTICLES;
    // Open ones were created in the past two weeks; published ones a day or two before their publication.
    const publishedAt = open
      ? now - Math.floor(rnd() * 3 * DAY)
      : now - Math.floor(((index - SCALE_OPEN_ARTICLES + rnd()) / published) * 365 * DAY);
    const created = open ? now - Math.floor((3 + rnd() * 11) * DAY) : publishedAt - Math.floor((1 + rnd()) * DAY);
    const future = iso(now + Math.floor((1 + rnd() * 20) * DAY));
    const kind = !open ? 'published' : index < 4 ? 'draft' : index < 7 ? 'scheduled' : 'blog-only';
    const blogDone = kind === 'published' || kind === 'blog-only';
    const linkedinDone = kind === 'published';
    const updated = iso(Math.max(created, publishedAt));
    return {
      ...base,
      id: newArticleId(created),
      createdAt: iso(created),
      updatedAt: updated,
      blog: {
        ...base.blog,
        publishedToWordPress: blogDone,
        lastPublished: blogDone ? iso(publishedAt) : null,
        wordpressPostUrl: blogDone ? `https://blog.example.com/?p=${1000 + index}` : null,
      },
      linkedin: {
        ...base.linkedin,
        publishedToLinkedIn: linkedinDone,
        lastPublished: linkedinDone ? iso(publishedAt) : null,
        linkedinPostUrl: linkedinDone ? `https://www.linkedin.com/feed/update/urn:li:share:${7000000 + index}` : null,
      },
      scheduled: {
        blog: blogDone ? iso(publishedAt) : kind === 'scheduled' ? future : null,
        linkedin: linkedinDone ? iso(publishedAt) : kind === 'draft' ? null : future,
      },
      lastError: null,
      generation: { status: 'done', updatedAt: updated },
    };
  });
}

/**
 * Writes articles with BatchWriteItem (25 a call, several calls at once), each item exactly as
 * DynamoArticleStore.put writes it: the article, its key, its type and its index attributes
 * (indexAttributesOf). Nothing else: the owner's dashboard summary is left to the production backfill
 * (DynamoSummaryStore.rebuild) and the list version to the next store write.
 */
export async function batchWriteArticles(
  db: DynamoDBDocumentClient,
  tableName: string,
  articles: ArticleRecord[],
): Promise<void> {
  const items = articles.map((article) => ({
    PK: `USER#${article.userId}`,
    SK: `ARTICLE#${article.id}`,
    type: 'article',
    ...article,
    ...indexAttributesOf(article),
  }));
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < items.length) {
        const batch = items.slice(next, next + 25);
        next += batch.length;
        let pending = batch.map((Item) => ({ PutRequest: { Item } }));
        for (let attempt = 0; pending.length; attempt++) {
          if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
          const out = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
          pending = (out.UnprocessedItems?.[tableName] ?? []) as typeof pending;
        }
      }
    }),
  );
}
