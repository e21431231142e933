/**
 * The approval e-mail's text and HTML: what will be published, as the editor's previews show it
 * (frontend/src/channels/<id>/, each channel's preview), built by the functions publishing calls —
 * the blog as wordpressPost's sanitized HTML under its featured image and title, the LinkedIn post as the card
 * (author, linkedInCommentary read back as LinkedIn shows it, image) — with a link to the full /approve page.
 *
 * Mail clients drop a page's <style> and scripts and many ignore classes, so every style is inline, the layout
 * is tables at most 640 px wide that narrow with the screen, and the plain-text part carries the same content.
 */
import {
  linkedInCommentary,
  linkedInPostAuthor,
  listText,
  littleTextSegments,
  isPlatform,
  type LinkedInIdentity,
  type Platform,
  type VersionId,
} from '@app/shared';
import { ownVersionLabel } from '../channels/ids.js';
import { versionName } from './version-names.js';

export { PLATFORM_NAMES, versionName } from './version-names.js';
const SHORT_NAMES: Record<Platform, string> = { blog: 'WordPress', linkedin: 'LinkedIn' };
/** Its short name ("What will be published on WordPress"). */
const shortName = (version: VersionId): string =>
  isPlatform(version) ? SHORT_NAMES[version] : ownVersionLabel(version);

/** "Approving publishes to WordPress and <another channel>.", or undefined when it is the version's own channel alone. */
function channelsLine(input: Pick<ApprovalEmailInput, 'channels' | 'platform' | 'review'>): string | undefined {
  const channels = input.channels ?? [];
  if (input.review || !channels.length || (channels.length === 1 && channels[0] === shortName(input.platform)))
    return undefined;
  return `Approving publishes to ${listText(channels)}.`;
}

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface ApprovalEmailInput {
  /** The version: blog, linkedin, or a channel's own (its text shown as the plain post it is). */
  platform: VersionId;
  title: string;
  /** The version's text as stored (Markdown for the blog, plain text for LinkedIn). */
  content: string;
  /** The scheduled time as approvalTimeText gives it (in the owner's zone, named). */
  when: string;
  /** Why the text is missing or may be incomplete; empty when nothing is wrong. */
  problem: string;
  /**
   * The channels approving publishes to (the version's connected ones, domain/publishing.ts versionChannels): named
   * in the e-mail unless they are the version's own channel alone (WordPress for the blog), whose e-mail is as ever.
   */
  channels?: readonly string[];
  /** The platform's image: its description, and `cid` when its file goes with the e-mail. */
  image: { description: string; cid: string | null } | null;
  /** LinkedIn: who the post goes out as. */
  linkedIn?: { identity: LinkedInIdentity | undefined; mode: 'personal' | 'company' };
  approveUrl: string;
  scheduleUrl: string;
  /** How many days the approval link works. */
  linkDays: number;
  /**
   * A team workspace's review request (domain/review.ts): the same rendered post, asking a reviewer to approve or
   * request changes, each through a link of its own.
   */
  review?: { changesUrl: string; workspaceName: string; stage: string };
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = '#111827';
const TEXT = '#1f2937';
const MUTED = '#4b5563';
const SUBTLE = '#6b7280';
const BORDER = '#e5e7eb';
const ACCENT = '#4f46e5';
const LINK = '#4338ca';
/** LinkedIn's link blue, for hashtags as LinkedIn shows them. */
const LINKEDIN_BLUE = '#0a66c2';
/** The card is 640 px at most, 24 px padding: 592 px inside, the preview's 1 px borders aside. */
const IMAGE_WIDTH = 590;

/**
 * Inline styles for the tags wordpressPost's sanitizer lets through (shared/src/markdown.ts). The sanitized HTML
 * escapes every `<` of text and attribute values, so each `<tag` found is a tag the sanitizer wrote.
 */
const BODY_STYLES: Record<string, string> = {
  h1: `margin:24px 0 12px;font-size:26px;line-height:1.25;font-weight:700;color:${INK}`,
  h2: `margin:24px 0 10px;font-size:21px;line-height:1.3;font-weight:700;color:${INK}`,
  h3: `margin:20px 0 8px;font-size:18px;line-height:1.35;font-weight:700;color:${INK}`,
  h4: `margin:18px 0 8px;font-size:16px;line-height:1.4;font-weight:700;color:${INK}`,
  h5: `margin:16px 0 6px;font-size:15px;line-height:1.4;font-weight:700;color:${INK}`,
  h6: `margin:16px 0 6px;font-size:14px;line-height:1.4;font-weight:700;color:${MUTED}`,
  p: `margin:0 0 14px;font-size:16px;line-height:1.6;color:${TEXT}`,
  blockquote: `margin:0 0 14px;padding:2px 0 2px 14px;border-left:4px solid #d1d5db;color:${MUTED}`,
  ul: `margin:0 0 14px;padding-left:24px;font-size:16px;line-height:1.6;color:${TEXT}`,
  ol: `margin:0 0 14px;padding-left:24px;font-size:16px;line-height:1.6;color:${TEXT}`,
  li: 'margin:0 0 6px',
  a: `color:${LINK};text-decoration:underline`,
  img: 'max-width:100%;height:auto;border:0',
  pre: `margin:0 0 14px;padding:12px;background-color:#f3f4f6;border-radius:6px;font-size:14px;line-height:1.5;white-space:pre-wrap;word-break:break-word;color:${TEXT}`,
  code: "font-family:Menlo,Consolas,'Courier New',monospace;font-size:14px;background-color:#f3f4f6;border-radius:4px",
  table: `margin:0 0 14px;border-collapse:collapse;font-size:15px;color:${TEXT}`,
  th: 'padding:6px 10px;border:1px solid #d1d5db;font-weight:700',
  td: 'padding:6px 10px;border:1px solid #d1d5db',
  hr: `margin:20px 0;border:0;border-top:1px solid ${BORDER}`,
};
const STYLED_TAG = new RegExp(`<(${Object.keys(BODY_STYLES).join('|')})(?=[\\s>/])`, 'g');

/** The sanitized post HTML with each tag's inline style. */
export function withInlineStyles(html: string): string {
  return html.replace(STYLED_TAG, (open, tag: string) => `${open} style="${BODY_STYLES[tag]}"`);
}

/** A link as a button that mail clients draw (a table cell with a background, the link filling it). */
const button = (href: string, label: string) =>
  `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate"><tr>` +
  `<td bgcolor="${ACCENT}" style="border-radius:6px;background-color:${ACCENT}">` +
  `<a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 22px;font-family:${FONT};font-size:16px;font-weight:600;line-height:1.2;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a>` +
  `</td></tr></table>`;

const imageTag = (image: { description: string; cid: string }, height: number) =>
  `<img src="cid:${escapeHtml(image.cid)}" alt="${escapeHtml(image.description)}" width="${IMAGE_WIDTH}" height="${Math.round((IMAGE_WIDTH * height) / 1200)}" style="display:block;width:100%;max-width:${IMAGE_WIDTH}px;height:auto;border:0">`;

/** What publishing sends to WordPress for the text (wordpressPost). */
async function blogPost(input: ApprovalEmailInput): Promise<{ title: string; html: string }> {
  // Loaded with the first e-mail of a blog post, not at every cold start of the worker (as publishing does).
  const { wordpressPost } = await import('@app/shared/markdown');
  return wordpressPost({ title: input.title, blogContent: input.content });
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The sanitized post HTML as plain text, for the e-mail's text part: blocks on lines of their own, list items
 * with "- ", a link's address after its text, an image as its description. Only the sanitizer's tags occur.
 */
export function postText(html: string): string {
  return html
    .replace(/>\s*\n\s*</g, '><') // the line breaks marked puts between blocks
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<hr\s*\/?>/g, '\n----\n\n')
    .replace(/<img\b[^>]*?\balt="([^"]*)"[^>]*>/g, (_, alt: string) => (alt ? `[${alt}]` : ''))
    .replace(/<a\b[^>]*?\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, (_, href: string, text: string) =>
      text.replace(/<[^>]+>/g, '') === href ? text : `${text} (${href})`,
    )
    .replace(/<li\b[^>]*>/g, '- ')
    .replace(/<\/(li|tr)>/g, '\n')
    .replace(/<\/(td|th)>/g, '\t')
    .replace(/<\/(p|h[1-6]|blockquote|pre|table|ul|ol)>/g, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : entity;
    })
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The WordPress post: featured image (1200×800), title, the sanitized HTML publishing sends. */
function blogPreview(input: ApprovalEmailInput, post: { title: string; html: string }): string {
  // An image whose file could not be read is left out; only an article without one says so.
  const image = input.image?.cid
    ? imageTag({ description: input.image.description, cid: input.image.cid }, 800)
    : input.image
      ? ''
      : `<p style="margin:16px 18px 0;padding:10px 12px;border:1px dashed #d1d5db;border-radius:6px;font-size:13px;color:${SUBTLE}">No featured image yet: add one in the Image step.</p>`;
  const body = input.content.trim()
    ? withInlineStyles(post.html)
    : `<p style="margin:0 0 14px;font-size:15px;color:${SUBTLE}">Nothing to preview yet.</p>`;
  return (
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate;border:1px solid ${BORDER};border-radius:8px;overflow:hidden">` +
    `<tr><td style="padding:0">${image}</td></tr>` +
    `<tr><td style="padding:16px 18px 4px;font-family:${FONT}">` +
    `<h1 style="margin:0 0 12px;font-size:26px;line-height:1.25;font-weight:700;color:${INK};word-break:break-word">${escapeHtml(post.title)}</h1>` +
    `<div style="word-break:break-word">${body}</div>` +
    `</td></tr></table>`
  );
}

/** The text LinkedIn shows for the commentary publishing sends: escapes read back, hashtags apart. */
const linkedInSegments = (content: string) => littleTextSegments(linkedInCommentary(content));

/** The LinkedIn card: author, the commentary as LinkedIn shows it (hashtags in its link blue), the 1200×627 image. */
function linkedInPreview(input: ApprovalEmailInput): string {
  const author = linkedInPostAuthor(input.linkedIn?.identity, input.linkedIn?.mode ?? 'personal');
  const segments = linkedInSegments(input.content);
  const text = segments.length
    ? segments
        .map((s) => {
          const html = escapeHtml(s.text).replace(/\r?\n/g, '<br>');
          return s.kind === 'hashtag' ? `<span style="color:${LINKEDIN_BLUE};font-weight:600">${html}</span>` : html;
        })
        .join('')
    : `<span style="color:${SUBTLE}">Nothing to preview yet.</span>`;
  const avatar = author.initials
    ? `<td width="48" height="48" align="center" valign="middle" style="width:48px;height:48px;border-radius:24px;background-color:#e0e7ff;color:#3730a3;font-family:${FONT};font-size:17px;font-weight:700">${escapeHtml(author.initials)}</td>`
    : `<td width="48" height="48" style="width:48px;height:48px;border-radius:24px;background-color:#e5e7eb"></td>`;
  const image = input.image?.cid
    ? `<tr><td style="padding:0;border-top:1px solid ${BORDER}">${imageTag({ description: input.image.description, cid: input.image.cid }, 627)}</td></tr>`
    : '';
  return (
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate;border:1px solid ${BORDER};border-radius:8px;overflow:hidden">` +
    `<tr><td style="padding:12px 16px 0"><table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>${avatar}` +
    `<td style="padding-left:10px;font-family:${FONT}">` +
    `<div style="font-size:14px;font-weight:600;color:${INK};word-break:break-word">${escapeHtml(author.name)}</div>` +
    `<div style="font-size:12px;color:${SUBTLE}">${escapeHtml(author.detail)} · Now</div>` +
    `</td></tr></table></td></tr>` +
    `<tr><td style="padding:10px 16px 12px;font-family:${FONT};font-size:14px;line-height:1.45;color:${TEXT};word-break:break-word">${text}</td></tr>` +
    image +
    `</table>`
  );
}

/** A channel's own version: its text as the plain post it is, over its image (the blog's 1200×800 picture). */
function plainPreview(input: ApprovalEmailInput): string {
  const text = input.content.trim()
    ? escapeHtml(input.content).replace(/\r?\n/g, '<br>')
    : `<span style="color:${SUBTLE}">Nothing to preview yet.</span>`;
  const image = input.image?.cid
    ? `<tr><td style="padding:0;border-top:1px solid ${BORDER}">${imageTag({ description: input.image.description, cid: input.image.cid }, 800)}</td></tr>`
    : '';
  return (
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate;border:1px solid ${BORDER};border-radius:8px;overflow:hidden">` +
    `<tr><td style="padding:12px 16px;font-family:${FONT};font-size:15px;line-height:1.5;color:${TEXT};word-break:break-word">${text}</td></tr>` +
    image +
    `</table>`
  );
}

/** The plain-text part: the same message, and the text as it will be published (the blog post's as text). */
function plainText(input: ApprovalEmailInput, post: { title: string; html: string } | null): string {
  const platform = versionName(input.platform);
  const rule = '-'.repeat(60);
  const published = post
    ? [post.title, '', (input.content.trim() && postText(post.html)) || 'Nothing to preview yet.']
    : input.platform === 'linkedin'
      ? [
          linkedInSegments(input.content)
            .map((s) => s.text)
            .join('') || 'Nothing to preview yet.',
        ]
      : [input.content.trim() || 'Nothing to preview yet.'];
  const links = input.review
    ? [
        `Approve: ${input.approveUrl}`,
        `Request changes: ${input.review.changesUrl}`,
        `Review on the Schedule page: ${input.scheduleUrl}`,
        `Nothing happens until you confirm on the review page. The links work for ${input.linkDays} days, for you only.`,
      ]
    : [
        `Review and approve: ${input.approveUrl}`,
        `Review on the Schedule page: ${input.scheduleUrl}`,
        `Nothing is published until you confirm on the approval page. The link works for ${input.linkDays} days.`,
      ];
  const channels = channelsLine(input);
  return [
    input.review
      ? `Review requested in ${input.review.workspaceName} (${input.review.stage}): "${input.title}" for ${platform}${input.when ? ` (scheduled ${input.when})` : ''}.`
      : `"${input.title}" is ready for ${platform} (scheduled ${input.when}).`,
    ...(input.problem ? [input.problem] : []),
    ...(channels ? [channels] : []),
    '',
    ...links,
    '',
    `What will be published on ${shortName(input.platform)}:`,
    rule,
    input.image ? `Image: ${input.image.description}` : 'No image yet.',
    '',
    ...published,
    rule,
  ].join('\n');
}

/** The approval e-mail: subject, plain text and HTML (a whole document, every style inline). */
export async function approvalEmailContent(
  input: ApprovalEmailInput,
): Promise<{ subject: string; text: string; html: string }> {
  const platform = versionName(input.platform);
  const review = input.review;
  const subject = review ? `Review for ${platform}: ${input.title}` : `Approve for ${platform}: ${input.title}`;
  const post = input.platform === 'blog' ? await blogPost(input) : null;
  const preview = post
    ? blogPreview(input, post)
    : input.platform === 'linkedin'
      ? linkedInPreview(input)
      : plainPreview(input);
  const p = paragraph;
  // A review's second action is a plain link beside the button: one clear primary action per e-mail.
  const actions = review
    ? `${button(input.approveUrl, 'Approve')}${p(`margin-top:10px;margin-bottom:0;font-size:15px;line-height:1.5`, `<a href="${escapeHtml(review.changesUrl)}" style="color:${LINK};text-decoration:underline;font-weight:600">Request changes</a>`)}`
    : button(input.approveUrl, 'Review and approve');
  const html = emailDocument(
    subject,
    `<tr><td style="padding:24px 24px 4px">
${p(`font-size:12px;font-weight:700;letter-spacing:0.08em;text-transform:uppercase;color:${ACCENT}`, review ? 'Review requested' : 'Approval needed')}
<h1 style="margin:0 0 10px;font-family:${FONT};font-size:24px;line-height:1.25;font-weight:700;color:${INK};word-break:break-word">${review ? `Review “${escapeHtml(input.title)}” for ${shortName(input.platform)}` : `Publish “${escapeHtml(input.title)}” to ${shortName(input.platform)}?`}</h1>
${p(`font-size:15px;line-height:1.5;color:${MUTED}`, review ? `In <strong>${escapeHtml(review.workspaceName)}</strong>, for <strong>${platform}</strong>: ${escapeHtml(review.stage)}${input.when ? `, scheduled ${escapeHtml(input.when)}` : ''}.` : `Ready for <strong>${platform}</strong>, scheduled ${escapeHtml(input.when)}.`)}
${input.problem ? p('font-size:15px;line-height:1.5;color:#b42318', `<strong>${escapeHtml(input.problem)}</strong>`) : ''}
${channelsLine(input) ? p(`font-size:15px;line-height:1.5;color:${TEXT}`, `<strong>${escapeHtml(channelsLine(input)!)}</strong>`) : ''}
${actions}
${p(`margin-top:10px;font-size:13px;line-height:1.5;color:${SUBTLE}`, review ? `Nothing happens until you confirm on the review page. The links work for ${input.linkDays} days, for you only.` : `Nothing is published until you confirm on the approval page. The link works for ${input.linkDays} days.`)}
</td></tr>
<tr><td style="padding:12px 24px 8px">
${p(`margin:0;font-size:13px;font-weight:700;color:${MUTED}`, `What will be published on ${shortName(input.platform)}`)}
</td></tr>
<tr><td style="padding:0 24px 20px">
${preview}
</td></tr>
<tr><td style="padding:4px 24px 24px;border-top:1px solid ${BORDER}">
<div style="height:16px;line-height:16px;font-size:16px">&nbsp;</div>
${actions}
${p(`margin-top:12px;margin-bottom:0;font-size:13px;line-height:1.5;color:${SUBTLE}`, `Or <a href="${escapeHtml(input.scheduleUrl)}" style="color:${LINK};text-decoration:underline">review it on the Schedule page</a>.`)}
</td></tr>`,
  );
  return { subject, text: plainText(input, post), html };
}

const paragraph = (style: string, html: string) =>
  `<p style="margin:0 0 14px;font-family:${FONT};${style}">${html}</p>`;

/** A whole e-mail document: the card of at most 640 px on a grey page, holding `rows` (table rows). */
function emailDocument(subject: string, rows: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6">
<tr><td align="center" style="padding:24px 10px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:640px;border-collapse:separate;background-color:#ffffff;border:1px solid ${BORDER};border-radius:10px">
${rows}
</table>
</td></tr>
</table>
</body>
</html>`;
}

export interface ChangesRequestedEmailInput {
  platform: VersionId;
  title: string;
  workspaceName: string;
  reviewerName: string;
  comment: string;
  /** The article's editor. */
  editorUrl: string;
}

/** The e-mail telling a version's authors that a reviewer requested changes (domain/review.ts), in the same frame. */
export function changesRequestedEmailContent(input: ChangesRequestedEmailInput): {
  subject: string;
  text: string;
  html: string;
} {
  const platform = versionName(input.platform);
  const subject = `Changes requested for ${platform}: ${input.title}`;
  const text = [
    `${input.reviewerName} requested changes to "${input.title}" for ${platform} in ${input.workspaceName}:`,
    '',
    ...input.comment.split(/\r?\n/).map((line) => `> ${line}`),
    '',
    `Edit it and submit it again: ${input.editorUrl}`,
    "The comment is in the version's comment thread beside the text.",
  ].join('\n');
  const comment = escapeHtml(input.comment).replace(/\r?\n/g, '<br>');
  const html = emailDocument(
    subject,
    `<tr><td style="padding:24px">
${paragraph(`font-size:12px;font-weight:700;letter-spacing:0.08em;text-transform:uppercase;color:${ACCENT}`, 'Changes requested')}
<h1 style="margin:0 0 10px;font-family:${FONT};font-size:24px;line-height:1.25;font-weight:700;color:${INK};word-break:break-word">“${escapeHtml(input.title)}” for ${shortName(input.platform)}</h1>
${paragraph(`font-size:15px;line-height:1.5;color:${MUTED}`, `<strong>${escapeHtml(input.reviewerName)}</strong> requested changes in <strong>${escapeHtml(input.workspaceName)}</strong>:`)}
<blockquote style="margin:0 0 18px;padding:4px 0 4px 14px;border-left:4px solid ${ACCENT};font-family:${FONT};font-size:16px;line-height:1.6;color:${TEXT};word-break:break-word">${comment}</blockquote>
${button(input.editorUrl, 'Open the editor')}
${paragraph(`margin-top:12px;margin-bottom:0;font-size:13px;line-height:1.5;color:${SUBTLE}`, 'Edit it and submit it again. The comment is in the version’s comment thread beside the text.')}
</td></tr>`,
  );
  return { subject, text, html };
}
