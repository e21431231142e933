/**
 * The Bluesky version of an article (channels/registry.ts, `version`): its text at `versions.bluesky.content`
 * (docs/data-model.md), at most 300 graphemes (shared/src/channels/bluesky), drafted by the AI as a short post with a
 * hashtag or two, or composed offline from the brief with the product's offline-draft note. Loaded without the
 * channel's client: the edit route and the drafting need only this.
 */
import { OFFLINE_LINKEDIN_NOTE } from '@app/shared';
import { BLUESKY_MAX_BYTES, BLUESKY_MAX_GRAPHEMES, graphemeLength, utf8Length } from '@app/shared/channels/bluesky';
import type { ArticleBrief, VersionDrafting } from '../../domain/ai.js';
import { briefText } from '../../adapters/ai/prompts.js';
import { briefHashtags, clip, fitToLength } from '../../adapters/ai/text.js';
import type { ChannelVersion } from '../channel.js';
import { BLUESKY_KEYS, blueskyTextProblem } from './channel.js';

/**
 * `text` within Bluesky's limits, shortened at a word (or sentence) boundary, its closing hashtags kept, when it is
 * over them. A cut counts UTF-16 units, never fewer than graphemes, so what it leaves always fits.
 */
export function fitBlueskyText(text: string): string {
  const clean = text.replace(/\r\n?/g, '\n').trim();
  if (graphemeLength(clean) <= BLUESKY_MAX_GRAPHEMES && utf8Length(clean) <= BLUESKY_MAX_BYTES) return clean;
  return fitToLength(clean, BLUESKY_MAX_GRAPHEMES);
}

const INSTRUCTIONS = [
  'You are an experienced social media writer. Write one Bluesky post from the brief the user gives you.',
  `The whole post, hashtags included, must be at most ${BLUESKY_MAX_GRAPHEMES} characters including spaces (an emoji counts as one).`,
  'Plain text: no Markdown, no links and no placeholders such as [link] or [URL]; the post gets its link card separately.',
  'One or two short sentences that make people want to read more, then a last line with one or two hashtags built from the focus keyword and the tags.',
  'Do not invent statistics or quotes. Write in the language of the brief. Return only the post, with no preamble, notes or quotes around it.',
].join(' ');

/** The offline draft: the note, the title and topic as one short paragraph, and up to two hashtags. */
function offlineDraft(brief: ArticleBrief): string {
  const title = brief.title.trim().replace(/[.:;,]+$/, '');
  const topic = brief.topic.trim();
  const line = topic && topic.toLowerCase() !== title.toLowerCase() ? `${title}: ${clip(topic, 140)}` : title;
  const tags = briefHashtags(brief).slice(0, 2).join(' ');
  return fitBlueskyText([OFFLINE_LINKEDIN_NOTE, line, ...(tags ? [tags] : [])].join('\n\n'));
}

const drafting: VersionDrafting = {
  prompt: (brief) => ({ instructions: INSTRUCTIONS, input: briefText(brief) }),
  fit: fitBlueskyText,
  offline: offlineDraft,
};

export const version: ChannelVersion = {
  id: 'bluesky',
  textProblem: blueskyTextProblem,
  drafting,
  async connected({ settings }, ownerId) {
    const values = await settings.values(ownerId, [BLUESKY_KEYS.handle, BLUESKY_KEYS.appPassword]);
    return Boolean(values.get(BLUESKY_KEYS.handle) && values.get(BLUESKY_KEYS.appPassword));
  },
};
