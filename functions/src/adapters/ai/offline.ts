/**
 * Offline implementations of the AI ports, used when no OpenAI key is configured (docs/architecture.md, Local and AWS).
 *
 * Text: a structured draft composed only from the brief's own fields (title, topic, keyword,
 * details, tags), plainly marked as an offline draft. Deterministic: the same brief gives the same text.
 * Image: a branded card (gradient, title, description, "Content Publisher" footer) drawn as SVG and
 * rendered by sharp at 1200×800 and 1200×627.
 *
 * Editing offline is honest about what it can do. It applies requests that are mechanical:
 *   - "shorter" / "shorten" / "more concise" / "condense": keeps the first sentence of each paragraph
 *     and the first three items of each list (headings and hashtags stay);
 *   - "add hashtag(s) X, Y" (or any #Word in the request; "add hashtags" alone uses keyword and tags);
 *   - "remove hashtags"; "remove emoji(s)";
 *   - `replace "old" with "new"` (quoted, literal, every occurrence).
 * Anything else (tone, style, rewriting, translating, …) needs a language model. Rather than return
 * the text unchanged or half-applied and let the person think it worked, such a request (or any part
 * of a request that is not understood) throws AiError(OFFLINE_EDIT_NEEDS_KEY, 'ai_unavailable').
 */
import { LINKEDIN_MAX_CHARS } from '@app/shared';
import {
  AiError,
  type ArticleBrief,
  type ContentGenerator,
  type GeneratedImages,
  type ImageGenerator,
  type Platform,
} from '../../domain/ai.js';
import { BLOG_IMAGE, LINKEDIN_IMAGE, loadSharp } from './images.js';
import {
  briefHashtags,
  clip,
  fitToLength,
  lowerFirst,
  sentences,
  splitTrailingHashtags,
  toHashtag,
  upperFirst,
} from './text.js';

export const OFFLINE_BLOG_MARKER =
  '> Offline draft — composed from your brief without AI. Add an OpenAI key in Settings → API Keys (openai_api_key) for AI drafts.';
export const OFFLINE_LINKEDIN_MARKER = '[Offline draft — composed from your brief without AI. Delete this line before publishing.]';
export const OFFLINE_EDIT_NEEDS_KEY =
  'Editing with instructions needs an OpenAI key: add openai_api_key in Settings → API Keys, or switch to Manual and edit by hand.';

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

interface Section {
  heading: string;
  body: string;
}

/** Words that open an instruction ("Explain why …") rather than a statement. */
const INSTRUCTION =
  /^(?:please\s+)?(?:explain|show|cover|describe|discuss|mention|talk\s+about|highlight|include|focus\s+on|add|outline|list|share|give|provide|explore|address|compare|summari[sz]e|introduce|walk\s+through|write\s+about|touch\s+on|detail|present|emphasi[sz]e|stress)\s+(?:that\s+|on\s+|about\s+)?/i;
const LIST_ITEM = /^\s*(?:[-*•‣▪]|\d+[.)])\s+/;

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
    .filter((p) => /[\p{L}\p{N}]/u.test(p) && !seen.has(p.toLowerCase()) && seen.add(p.toLowerCase()))
    .slice(0, 24);
}

function headingFor(point: string): { heading: string; instruction: boolean; rest: string } {
  const [first = point, ...others] = sentences(point);
  const instruction = INSTRUCTION.test(first);
  let h = first.replace(INSTRUCTION, '').replace(/[.!?…:;,]+$/u, '').trim();
  if (h.length > 70) {
    const clause = h.slice(0, 70).search(/[,:;–—(](?=[^,:;–—(]*$)/u);
    h = clause >= 25 ? h.slice(0, clause).trim() : clip(h, 70);
  }
  return { heading: upperFirst(h || first), instruction, rest: others.join(' ') };
}

const GENERIC_SECTIONS: ReadonlyArray<(subject: string, k: string) => Section> = [
  (subject, k) => ({
    // A topic that already asks why ("Why compilers matter") is the heading as it is.
    heading: /^why\b/i.test(subject.trim()) ? upperFirst(clip(subject.trim().replace(/[.!?]+$/u, ''), 70)) : `Why ${clip(subject, 60)} matters`,
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
        const firstSentence = (sentences(point)[0] ?? point).replace(/[.!?…:;,]+$/u, '');
        // Under its own heading, the sentence that became the heading would only repeat it.
        if (j === 0 && upperFirst(firstSentence) === h.heading) {
          if (h.rest) parts.push(h.rest);
        } else parts.push(/[.!?…]$/u.test(point) ? point : `${point}.`);
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
  return [
    `# ${c.title}`,
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

/** Applies the mechanical edits described at the top of this file, or throws the needs-a-key error. */
export function offlineEdit(input: { brief: ArticleBrief; platform: Platform; content: string; request: string }): string {
  let rest = ` ${input.request.replace(/\s+/g, ' ').trim()} `;
  const ops: Array<(text: string) => string> = [];
  const take = (re: RegExp, fn: (m: RegExpExecArray) => void) => {
    rest = rest.replace(re, (...args) => {
      fn(args.slice(0, -2) as unknown as RegExpExecArray);
      return ' ';
    });
  };

  // replace "old" with "new"
  take(/\b(?:replace|change|swap)\s+["“'‘]([^"”'’]+)["”'’]\s+(?:with|to|for|by|into)\s+["“'‘]([^"”'’]*)["”'’]/gi, (m) => {
    const from = m[1]!;
    const to = m[2]!;
    ops.push((text) => {
      if (text.includes(from)) return text.split(from).join(to);
      const loose = new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
      if (!loose.test(text)) {
        throw new AiError(
          `"${clip(from, 60)}" does not appear in the text, so it could not be replaced. Check the spelling, or switch to Manual and edit by hand.`,
          'edit_not_applicable',
        );
      }
      return text.replace(loose, () => to);
    });
  });
  // remove emoji
  take(/\b(?:remove|drop|delete|strip|no|without)\s+(?:the\s+|all\s+)?(?:emojis?|emoticons?)\b/gi, () =>
    ops.push((text) =>
      text
        .replace(/\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*/gu, '')
        .replace(/[ \t]{2,}/g, ' ')
        .replace(/ +$/gm, ''),
    ),
  );
  // remove hashtags
  let removeTags = false;
  take(/\b(?:remove|drop|delete|strip|no|without)\s+(?:the\s+|all\s+|any\s+)?hash\s?tags?\b/gi, () => {
    removeTags = true;
    ops.push(removeHashtags);
  });
  // shorter
  take(
    /\b(?:make\s+(?:it|this|the\s+\w+)\s+)?(?:(?:a\s+)?(?:bit|little|lot|much)\s+)?(?:shorter|shorten(?:\s+it)?|more\s+concise|concise|condense(?:\s+it)?|briefer|trim\s+it(?:\s+down)?|cut\s+it\s+down|reduce\s+(?:the\s+)?length)\b/gi,
    () => ops.push(shorten),
  );
  // add hashtags: "add (the) hashtag(s)[:] AI, Cloud and #DevOps"
  const added: string[] = [];
  let addTags = false;
  take(
    /\badd\s+(?:(?:the|some|a\s+few|few|these|following|more|a)\s+)*(?:hash\s?tags?|tags?)\b:?((?:\s*(?:,|&|and\b)?\s*#?(?!(?:make|shorten|remove|replace|change|add|then|and|please)\b)[\p{L}\p{N}_][\p{L}\p{N}_-]*)*)/giu,
    (m) => {
      addTags = true;
      added.push(...hashtagWords(m[1] ?? ''));
    },
  );
  // any other #Word in the request is a hashtag to add
  take(/(?:^|\s)#([\p{L}\p{N}_]+)/gu, (m) => {
    addTags = true;
    added.push(m[1]!);
  });
  if (addTags && !removeTags) {
    const wanted = added.length ? added : briefHashtags(input.brief); // at most 5, as in drafts
    ops.push((text) => addHashtags(text, wanted));
  }

  const leftover = rest
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !FILLER.has(w) && /\p{L}/u.test(w));
  if (!ops.length || leftover.length) throw new AiError(OFFLINE_EDIT_NEEDS_KEY, 'ai_unavailable');

  const before = input.content.replace(/\r\n?/g, '\n').trim();
  let text = before;
  for (const op of ops) text = op(text);
  text = text.replace(/\n{3,}/g, '\n\n').trim();
  if (text === before) {
    throw new AiError(
      `Nothing to change offline: the text already matches the request. For other changes, ${lowerFirst(OFFLINE_EDIT_NEEDS_KEY)}`,
      'ai_unavailable',
    );
  }
  return input.platform === 'linkedin' ? fitToLength(text, LINKEDIN_MAX_CHARS) : text;
}

/**
 * "growth hacking, ai and #DevOps" → ["growth hacking", "ai", "DevOps"]; with no commas or "and",
 * every word is its own tag: "AI Cloud" → ["AI", "Cloud"].
 */
function hashtagWords(list: string): string[] {
  const separated = /,|&|\band\b/iu.test(list);
  return list
    .split(/\s*(?:,|&|\band\b)\s*/iu)
    .flatMap((piece) => (separated && !piece.includes('#') ? [piece] : piece.split(/\s+|(?=#)/u)))
    .map((w) => w.replace(/#/g, '').trim())
    .filter(Boolean);
}

const FILLER = new Set(
  (
    'please pls kindly can could would will you make it its this that the a an post text article blog linkedin version ' +
    'content copy and also then bit little lot much too just for me thanks thank to of in i want like some way so ' +
    'both them all more please now again add'
  ).split(' '),
);

function shorten(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (/^\s*(?:#|>)/.test(block) || /^\s*\[[^\n]*\]\s*$/.test(block) || lines.every((l) => /^\s*#[\p{L}\p{N}_]/u.test(l))) return block;
      if (lines.some((l) => LIST_ITEM.test(l))) {
        let items = 0;
        return lines.filter((l) => !LIST_ITEM.test(l) || ++items <= 3).join('\n');
      }
      return sentences(block)[0] ?? block;
    })
    .join('\n\n');
}

function removeHashtags(text: string): string {
  const { body } = splitTrailingHashtags(text);
  return body
    .split('\n')
    .filter((l) => !/^(?:\s*#[\p{L}\p{N}_]+)+\s*$/u.test(l))
    .join('\n')
    .replace(/(^|[\s(])#([\p{L}\p{N}_]+)/gu, '$1$2');
}

function addHashtags(text: string, words: string[]): string {
  const { body, tags } = splitTrailingHashtags(text);
  const existing = tags ? tags.split(/\s+/) : [];
  const have = new Set(existing.map((t) => t.toLowerCase()));
  const more = words
    .map(toHashtag)
    .filter((t): t is string => !!t && !have.has(t.toLowerCase()) && (have.add(t.toLowerCase()), true));
  if (!more.length) return text;
  return `${body}\n\n${[...existing, ...more].join(' ')}`;
}

export class OfflineContentGenerator implements ContentGenerator {
  readonly kind = 'offline' as const;

  async draft(brief: ArticleBrief, platform: Platform): Promise<string> {
    return platform === 'blog' ? offlineBlogDraft(brief) : offlineLinkedInDraft(brief);
  }

  async edit(input: { brief: ArticleBrief; platform: Platform; content: string; request: string }): Promise<string> {
    return offlineEdit(input);
  }
}

// ---------------------------------------------------------------------------------------------
// Image card
// ---------------------------------------------------------------------------------------------

const PALETTES: ReadonlyArray<readonly [string, string, string]> = [
  ['#1e3a8a', '#0e7490', '#38bdf8'], // navy → teal
  ['#4c1d95', '#be185d', '#f472b6'], // violet → magenta
  ['#064e3b', '#0f766e', '#34d399'], // forest → emerald
  ['#7c2d12', '#b45309', '#fbbf24'], // rust → amber
  ['#111827', '#334155', '#60a5fa'], // graphite → slate
];

const FONT = 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif';

/** Escapes XML and drops characters XML 1.0 does not allow. */
export function escapeXml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Greedy word wrap by an estimated character width; the last allowed line ends in "…" on overflow. */
export function wrap(text: string, maxChars: number, maxLines: number): { lines: string[]; truncated: boolean } {
  const width = Math.max(1, maxChars);
  const words = text
    .replace(/\s+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .flatMap((w) => (w.length <= width ? [w] : (w.match(new RegExp(`.{1,${width}}`, 'gu')) ?? [w])));
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return { lines, truncated: false };
  const out = lines.slice(0, Math.max(0, maxLines));
  if (out.length) {
    const last = clip(out[out.length - 1]!, Math.max(1, width - 1)).replace(/[\s,;:.…–—-]+$/u, '');
    out[out.length - 1] = `${last}…`;
  }
  return { lines: out, truncated: true };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function cardSvg(input: { title: string; subtitle: string; label: string }, width: number, height: number): string {
  const [c1, c2, accent] = PALETTES[hash(`${input.title}|${input.label}`) % PALETTES.length]!;
  const pad = 80;
  const textWidth = width - 2 * pad;
  const footerY = height - 56;

  // Largest title size whose text fits in three lines.
  const sizes = height >= 800 ? [72, 62, 54] : [64, 56, 48];
  let titleSize = sizes[sizes.length - 1]!;
  let title = wrap(input.title, Math.floor(textWidth / (titleSize * 0.62)), 3);
  for (const size of sizes) {
    const attempt = wrap(input.title, Math.floor(textWidth / (size * 0.62)), 3);
    if (!attempt.truncated) {
      titleSize = size;
      title = attempt;
      break;
    }
  }
  const titleLead = Math.round(titleSize * 1.18);
  const labelY = pad + 10;
  const subSize = height >= 800 ? 30 : 26;
  const subLead = Math.round(subSize * 1.4);
  const gap = Math.round(subSize * 1.6); // from the last title baseline to the first subtitle line's top
  const top = labelY + 60; // below the label and its accent bar
  const bottom = footerY - 60; // above the footer
  const titleHeight = titleSize + (title.lines.length - 1) * titleLead;
  const subRoom = Math.floor((bottom - top - titleHeight - gap - subSize) / subLead) + 1;
  const subtitle = input.subtitle.trim()
    ? wrap(input.subtitle, Math.floor(textWidth / (subSize * 0.55)), Math.max(0, Math.min(3, subRoom)))
    : { lines: [], truncated: false };
  const blockHeight = titleHeight + (subtitle.lines.length ? gap + subSize + (subtitle.lines.length - 1) * subLead : 0);
  // The title block sits a little above the middle of the free space.
  const start = top + Math.max(0, Math.round((bottom - top - blockHeight) * 0.4));
  const titleY = start + titleSize;
  const subY = titleY + (title.lines.length - 1) * titleLead + gap + subSize;

  const tspans = (lines: string[], x: number, lead: number) =>
    lines.map((l, i) => `<tspan x="${x}" dy="${i === 0 ? 0 : lead}">${escapeXml(l)}</tspan>`).join('');

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${c1}"/>
      <stop offset="1" stop-color="${c2}"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <circle cx="${width - 140}" cy="${120}" r="${Math.round(height * 0.42)}" fill="#ffffff" fill-opacity="0.06"/>
  <circle cx="${width - 40}" cy="${height - 60}" r="${Math.round(height * 0.28)}" fill="#ffffff" fill-opacity="0.05"/>
  ${
    input.label.trim()
      ? `<text x="${pad}" y="${labelY}" font-family="${FONT}" font-size="22" font-weight="bold" letter-spacing="3" fill="#ffffff" fill-opacity="0.85">${escapeXml(
          clip(input.label.toUpperCase(), 48),
        )}</text>`
      : ''
  }
  <rect x="${pad}" y="${labelY + 20}" width="96" height="6" rx="3" fill="${accent}"/>
  <text x="${pad}" y="${titleY}" font-family="${FONT}" font-size="${titleSize}" font-weight="bold" fill="#ffffff">${tspans(
    title.lines,
    pad,
    titleLead,
  )}</text>
  ${
    subtitle.lines.length
      ? `<text x="${pad}" y="${subY}" font-family="${FONT}" font-size="${subSize}" fill="#ffffff" fill-opacity="0.88">${tspans(
          subtitle.lines,
          pad,
          subLead,
        )}</text>`
      : ''
  }
  <rect x="${pad}" y="${footerY - 22}" width="26" height="26" rx="6" fill="${accent}"/>
  <text x="${pad + 40}" y="${footerY}" font-family="${FONT}" font-size="22" font-weight="bold" fill="#ffffff" fill-opacity="0.9">Content Publisher</text>
</svg>`;
}

async function renderCard(svg: string, size: { width: number; height: number }): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg), { density: 72 })
    .resize({ ...size, fit: 'fill' })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

export class OfflineImageGenerator implements ImageGenerator {
  readonly kind = 'offline' as const;

  async generate(input: { brief: ArticleBrief; description: string }): Promise<GeneratedImages> {
    const { brief } = input;
    const card = {
      title: brief.title.trim() || brief.topic.trim() || 'Untitled article',
      subtitle: input.description.trim() || brief.imageDescription.trim() || brief.topic.trim(),
      label: brief.keyword.trim() || brief.tags.find((t) => t.trim()) || brief.topic.trim(),
    };
    const [blog, linkedin] = await Promise.all([
      renderCard(cardSvg(card, BLOG_IMAGE.width, BLOG_IMAGE.height), BLOG_IMAGE),
      renderCard(cardSvg(card, LINKEDIN_IMAGE.width, LINKEDIN_IMAGE.height), LINKEDIN_IMAGE),
    ]);
    return { blog, linkedin, contentType: 'image/png' };
  }
}
