/** Prompts for the OpenAI generators. Kept apart from the transport so they can be read and tested. */
import { LINKEDIN_MAX_CHARS } from '@app/shared';
import type { ArticleBrief, Platform } from '../../domain/ai.js';
import { briefHashtags, LINKEDIN_TARGET_CHARS } from './text.js';

/** Longest piece of user text put into a prompt (details can be pasted from anywhere). */
const MAX_FIELD_CHARS = 8000;
/** OpenAI's image prompt limit is 32,000 characters; a description never needs that much. */
const MAX_IMAGE_PROMPT_CHARS = 4000;

const field = (s: string | undefined): string => (s ?? '').trim().slice(0, MAX_FIELD_CHARS);

const BLOG_RULES = [
  // The title is published as the post's own title (shared/src/markdown.ts, wordpressPost): a heading of it
  // in the text would be a second headline.
  'Format: Markdown. Do not write the title and do not use any H1 ("# ") heading: the title is published separately, above the text.',
  'Start with an engaging introduction of one or two short paragraphs,',
  'then 3 to 5 H2 sections ("## ") that develop the details, then a "## Conclusion" section, and end with a clear call to action for the reader.',
  'Work the focus keyword in naturally: in the title or first paragraph and a few more times in the body, never stuffed.',
  'Use the details as the substance of the article. Do not invent statistics, quotes, studies or links.',
  'Aim for roughly 900 to 1,400 words with short paragraphs and bullet lists where they help.',
].join(' ');

/** 2800 → "2,800", without Intl: toLocaleString at module load costs ~20 ms of every cold start. */
const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const LINKEDIN_RULES = [
  'Format: plain text for a LinkedIn post. The first line is a hook that makes people stop scrolling and stands on its own.',
  'Then short paragraphs of one to three sentences separated by blank lines; a few "•" bullets are fine.',
  'No Markdown: no "#" headings, no **bold**, no links in Markdown syntax.',
  'End with a question or call to action, then a last line with 3 to 5 hashtags built from the focus keyword and the tags.',
  `The whole post, hashtags included, must be at most ${thousands(LINKEDIN_TARGET_CHARS)} characters including spaces`,
  `(LinkedIn refuses more than ${thousands(LINKEDIN_MAX_CHARS)}).`,
  'Do not invent statistics or quotes.',
].join(' ');

export const platformRules = (platform: Platform): string => (platform === 'blog' ? BLOG_RULES : LINKEDIN_RULES);

/** The brief as labelled lines, the same for drafts and edits. */
export function briefText(brief: ArticleBrief): string {
  const tags = brief.tags.map((t) => t.trim()).filter(Boolean);
  const hashtags = briefHashtags(brief);
  return [
    `Title: ${field(brief.title)}`,
    `Topic: ${field(brief.topic) || '(none given)'}`,
    `Focus keyword: ${field(brief.keyword) || '(none given)'}`,
    `Tags: ${tags.length ? tags.join(', ') : '(none)'}`,
    ...(hashtags.length ? [`Suggested hashtags: ${hashtags.join(' ')}`] : []),
    'Details:',
    field(brief.details) || '(none given: write from the title and topic)',
  ].join('\n');
}

export function draftPrompt(brief: ArticleBrief, platform: Platform): { instructions: string; input: string } {
  const what = platform === 'blog' ? 'a professional blog article' : 'a professional LinkedIn post';
  return {
    instructions: [
      `You are an experienced content writer. Write ${what} from the brief the user gives you.`,
      platformRules(platform),
      'Write in the language of the brief. Return only the finished text, with no preamble, notes or code fences.',
    ].join('\n\n'),
    input: `Brief for the ${platform === 'blog' ? 'blog article' : 'LinkedIn post'}:\n\n${briefText(brief)}`,
  };
}

export function editPrompt(input: { brief: ArticleBrief; platform: Platform; content: string; request: string }): {
  instructions: string;
  input: string;
} {
  const what = input.platform === 'blog' ? 'blog article (Markdown)' : 'LinkedIn post';
  return versionEditPrompt(what, platformRules(input.platform), input);
}

/** An edit request applied to a text called `what`, which must still follow `rules` (a channel's own version too). */
export function versionEditPrompt(
  what: string,
  rules: string,
  input: { brief: ArticleBrief; content: string; request: string },
): { instructions: string; input: string } {
  return {
    instructions: [
      `You are an experienced editor. The user gives you the current text of a ${what}, an edit request and the article brief for context.`,
      'Apply the edit request to the text. Keep everything the request does not ask to change (facts, structure, tone, language).',
      'Return only the full revised text, with no preamble, explanation or code fences.',
      `The revised text must still follow these rules: ${rules}`,
    ].join('\n\n'),
    input: [
      `Edit request: ${field(input.request)}`,
      '',
      'Article brief (context only):',
      briefText(input.brief),
      '',
      'Current text, between the markers:',
      '<<<TEXT',
      input.content.slice(0, 4 * MAX_FIELD_CHARS),
      'TEXT>>>',
    ].join('\n'),
  };
}

export function imagePrompt(brief: ArticleBrief, description: string): string {
  const subject = (description || brief.imageDescription || '').trim().slice(0, MAX_IMAGE_PROMPT_CHARS);
  const context = [
    brief.title.trim() && `titled "${field(brief.title).slice(0, 300)}"`,
    brief.topic.trim() && `about ${field(brief.topic).slice(0, 500)}`,
  ]
    .filter(Boolean)
    .join(' ');
  return [
    subject || `An abstract, professional image for an article${context ? ` ${context}` : ''}.`,
    context ? `It illustrates an article ${context}.` : '',
    'Style: professional, clean, modern editorial image suitable as a blog featured image and a LinkedIn post image.',
    'Landscape composition with the main subject centred and calm margins at the top and bottom, because the image is cropped to 1200x800 and 1200x627.',
    'Do not include any text, letters, numbers, words, captions, logos or watermarks in the image.',
  ]
    .filter(Boolean)
    .join('\n');
}
