/**
 * Offline drafts, used when no OpenAI key is configured (docs/architecture.md, Local and AWS): a
 * structured draft composed only from the brief's own fields (title, topic, keyword, details, tags),
 * plainly marked as an offline draft. Deterministic: the same brief gives the same text.
 */
import { LINKEDIN_MAX_CHARS, OFFLINE_BLOG_NOTE, OFFLINE_LINKEDIN_NOTE } from '@app/shared';
import type { ArticleBrief } from '../../../domain/ai.js';
import { briefHashtags, clip, fitToLength, LIST_ITEM, lowerFirst, sentences, upperFirst } from '../text.js';

// The notes live in shared/src/offline-draft.ts with the rule that finds them (publishing refuses them).
export const OFFLINE_BLOG_MARKER = OFFLINE_BLOG_NOTE;
export const OFFLINE_LINKEDIN_MARKER = OFFLINE_LINKEDIN_NOTE;

interface Section {
  heading: string;
  body: string;
}

/** Words that open an instruction ("Explain why …") rather than a statement. */
const INSTRUCTION =
  /^(?:please\s+)?(?:explain|show|cover|describe|discuss|mention|talk\s+about|highlight|include|focus\s+on|add|outline|list|share|give|provide|explore|address|compare|summari[sz]e|introduce|walk\s+through|write\s+about|touch\s+on|detail|present|emphasi[sz]e|stress)\s+(?:that\s+|on\s+|about\s+)?/i;

const BRIDGES: ReadonlyArray<(k: string) => string> = [
  (k) => `This is where ${k} starts to pay off: begin with one concrete step, check the result, and build from there.`,
  (k) => `In practice, a clear and repeatable process around ${k} saves time and avoids rework later on.`,
  () => 'Write down who does what and what "done" looks like, so the work stays consistent from one week to the next.',
  (k) => `Review this regularly: what works for ${k} today may need adjusting as your audience and goals change.`,
];

/** The brief's details as points: one per line when written as lines or a list, else one per sentence. */
export function detailPoints(details: string): string[] {
  const lines = details
    .split(/\r?\n/)
    .map((l) => l.replace(LIST_ITEM, '').trim())
    .filter(Boolean);
  const points = lines.length > 1 ? lines : sentences(lines[0] ?? '');
  const seen = new Set<string>();
  return points
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(
      (p) =>
        // new RegExp, not a literal: a \p{…} literal costs every Lambda cold start (shared/src/unicode-regexp.ts).
        new RegExp(String.raw`[\p{L}\p{N}]`, 'u').test(p) && !seen.has(p.toLowerCase()) && seen.add(p.toLowerCase()),
    )
    .slice(0, 24);
}

function headingFor(point: string): { heading: string; instruction: boolean; rest: string } {
  const [first = point, ...others] = sentences(point);
  const instruction = INSTRUCTION.test(first);
  let h = first
    .replace(INSTRUCTION, '')
    .replace(/[.!?\u2026:;,]+$/u, '')
    .trim();
  if (h.length > 70) {
    const clause = h.slice(0, 70).search(/[,:;\u2013\u2014(](?=[^,:;\u2013\u2014(]*$)/u);
    h = clause >= 25 ? h.slice(0, clause).trim() : clip(h, 70);
  }
  return { heading: upperFirst(h || first), instruction, rest: others.join(' ') };
}

const GENERIC_SECTIONS: ReadonlyArray<(subject: string, k: string) => Section> = [
  (subject, k) => ({
    // A topic that already asks why ("Why compilers matter") is the heading as it is.
    heading: /^why\b/i.test(subject.trim())
      ? upperFirst(clip(subject.trim().replace(/[.!?]+$/u, ''), 70))
      : `Why ${clip(subject, 60)} matters`,
    body: `${upperFirst(k)} is more than a passing trend. Getting it right saves time, builds trust with your audience and gives you results you can measure.`,
  }),
  (_s, k) => ({
    heading: `Getting started with ${clip(k, 60)}`,
    body: 'Start small: pick one goal, one channel and one measure of success. A simple routine you repeat every week beats an ambitious plan that never leaves the drawing board.',
  }),
  () => ({
    heading: 'Common mistakes to avoid',
    body: 'The usual pitfalls are trying to do everything at once, skipping the review step and not measuring what happened. Each one is easy to fix once you know to look for it.',
  }),
  () => ({
    heading: 'Measuring what works',
    body: 'Decide up front what success looks like, check it on a regular schedule, and do more of what moves the numbers.',
  }),
];

interface Composition {
  title: string;
  subject: string; // topic (or title) as a phrase that reads mid-sentence
  k: string; // the keyword, or the subject when there is none
  sections: Section[];
  statements: string[]; // detail sentences that are statements, not instructions
  hashtags: string[];
}

function compose(brief: ArticleBrief): Composition {
  const title = brief.title.replace(/\s+/g, ' ').trim() || 'Untitled article';
  const subject = lowerFirst(clip(brief.topic.trim() || title, 160));
  const k = clip(brief.keyword.trim(), 80) || subject;
  const points = detailPoints(brief.details);
  const statements: string[] = [];
  const sections: Section[] = [];

  const groups: string[][] = [];
  if (points.length >= 3) {
    // Four sections at most; earlier sections take the extra points.
    const n = Math.min(4, points.length);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const size = Math.floor(points.length / n) + (i < points.length % n ? 1 : 0);
      groups.push(points.slice(at, (at += size)));
    }
  } else {
    for (const p of points) groups.push([p]);
  }
  groups.forEach((group, i) => {
    const parts: string[] = [];
    let heading = '';
    group.forEach((point, j) => {
      const h = headingFor(point);
      if (j === 0) heading = h.heading;
      if (h.instruction) {
        if (j > 0) parts.push(`${h.heading}.`);
        if (h.rest) parts.push(h.rest);
      } else {
        const firstSentence = (sentences(point)[0] ?? point).replace(/[.!?\u2026:;,]+$/u, '');
        // Under its own heading, the sentence that became the heading would only repeat it.
        if (j === 0 && upperFirst(firstSentence) === h.heading) {
          if (h.rest) parts.push(h.rest);
        } else parts.push(/[.!?\u2026]$/u.test(point) ? point : `${point}.`);
        statements.push(point);
      }
    });
    parts.push(BRIDGES[i % BRIDGES.length]!(k));
    sections.push({ heading, body: parts.join(' ') });
  });
  for (let i = 0; sections.length < 3 && i < GENERIC_SECTIONS.length; i++) {
    sections.push(GENERIC_SECTIONS[i]!(subject, k));
  }
  return { title, subject, k, sections, statements, hashtags: briefHashtags(brief) };
}

export function offlineBlogDraft(brief: ArticleBrief): string {
  const c = compose(brief);
  const keywordLine = brief.keyword.trim()
    ? ` If ${c.k} is part of your work, the ideas below will help you approach it with a clear plan.`
    : '';
  const tags = brief.tags.map((t) => t.trim()).filter(Boolean);
  // No `# <title>` line: the title is published as the post's own title (shared/src/markdown.ts, wordpressPost).
  return [
    OFFLINE_BLOG_MARKER,
    `This article is about ${c.subject}.${keywordLine}`,
    `Below you will find ${c.sections.length} practical points on ${c.k}, a short summary and a next step you can take straight away.`,
    ...c.sections.flatMap((s) => [`## ${s.heading}`, s.body]),
    '## Key points',
    c.sections.map((s) => `- ${s.heading}`).join('\n'),
    '## Conclusion',
    `Good results with ${c.k} come from steady, deliberate steps rather than one big push. Start with the point that fits your situation best, measure the effect, and build on what works.`,
    '## Your next step',
    `Ready to put ${c.k} into practice? Pick one idea from this article and try it this week, then share what you learned in the comments, or get in touch if you would like help getting started.`,
    ...(tags.length ? [`**Related topics:** ${tags.join(' · ')}`] : []),
  ].join('\n\n');
}

export function offlineLinkedInDraft(brief: ArticleBrief): string {
  const c = compose(brief);
  const insight = c.statements.length
    ? clip(c.statements.slice(0, 2).join(' '), 400)
    : 'Getting it right saves time, builds trust with your audience and gives you results you can measure.';
  const headings = c.sections.slice(0, 4).map((s) => clip(s.heading, 120));
  const fresh = headings.filter((h) => !insight.includes(h));
  const bullets = (fresh.length >= 2 ? fresh : headings).map((h) => `• ${h}`);
  const title = clip(c.title, 150);
  const hook = /[?!]$/.test(title) ? title : `${title.replace(/[.:;,]+$/, '')} — in ${bullets.length} points.`;
  const intro = `This post is about ${clip(c.subject, 200)}.${
    brief.keyword.trim() ? ` If ${c.k} is part of your work, this one is for you.` : ''
  }`;
  const tail = c.hashtags.join(' ');
  const body = [
    OFFLINE_LINKEDIN_MARKER,
    hook,
    intro,
    insight,
    `Here is what matters most:\n${bullets.join('\n')}`,
    `What has worked for you with ${c.k}? Share your experience in the comments.`,
  ].join('\n\n');
  return fitToLength(tail ? `${body}\n\n${tail}` : body, LINKEDIN_MAX_CHARS);
}
