/**
 * The approval e-mail's text and HTML: what will be published, as the editor's previews show it
 * (frontend/src/channels/<id>/, each channel's preview), each channel's preview made in its own folder
 * (functions/src/channels/<id>/email-preview.ts) — the blog as wordpressPost's sanitized HTML under its featured image
 * and title, the LinkedIn post as the card (author, linkedInCommentary read back as LinkedIn shows it, image) — one
 * after the other for every channel the approval publishes to, with a link to the full /approve page.
 *
 * Mail clients drop a page's <style> and scripts and many ignore classes, so every style is inline, the layout
 * is tables at most 640 px wide that narrow with the screen, and the plain-text part carries the same content.
 */
import { isPlatform, listText, type LinkedInIdentity, type Platform, type VersionId } from '@app/shared';
import type { EmailPreview, EmailPreviewInput } from '../channels/channel.js';
import { ownVersionLabel } from '../channels/ids.js';
import { linkedinEmailPreview } from '../channels/linkedin/email-preview.js';
import { wordpressEmailPreview } from '../channels/wordpress/email-preview.js';
import {
  ACCENT,
  BORDER,
  FONT,
  INK,
  LINK,
  MUTED,
  NOTHING_YET,
  SUBTLE,
  TEXT,
  escapeHtml,
  imageTag,
  previewFrame,
} from './email-html.js';
import { versionName } from './version-names.js';

export { escapeHtml, postText, withInlineStyles } from './email-html.js';
export { PLATFORM_NAMES, versionName } from './version-names.js';
const SHORT_NAMES: Record<Platform, string> = { blog: 'WordPress', linkedin: 'LinkedIn' };
/** Its short name ("What will be published on WordPress"): a channel's own version's is its channel's. */
const shortName = (version: VersionId): string =>
  isPlatform(version) ? SHORT_NAMES[version] : ownVersionLabel(version);

/** "Approving publishes to WordPress and <another channel>.", or undefined when it is the version's own channel alone. */
function channelsLine(input: Pick<ApprovalEmailInput, 'channels' | 'platform' | 'review'>): string | undefined {
  const channels = input.channels ?? [];
  if (input.review || !channels.length || (channels.length === 1 && channels[0] === shortName(input.platform)))
    return undefined;
  return `Approving publishes to ${listText(channels)}.`;
}

export interface ApprovalEmailInput {
  /** The version: blog, linkedin, or a channel's own (previewed by its channel, `previews`). */
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
  /** The article's topic (a bundle's link card). */
  topic?: string;
  /**
   * Each channel's preview, in the order the approval publishes (PublishChannel.emailPreview); absent: the version's
   * own channel's alone.
   */
  previews?: readonly Section[];
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

/**
 * A post's preview under its heading ("What will be published on WordPress"); a post several channels publish (the
 * blog post on WordPress and a second blog) is shown once, saying where it goes (`goesTo`: their labels).
 */
type Section = { label: string; goesTo?: readonly string[] } & EmailPreview;

/** A section's heading, and the line under it that says where a post of several channels goes. */
const sectionHeading = (section: Section) =>
  section.goesTo ? 'What will be published' : `What will be published on ${section.label}`;
const goesToLine = (section: Section) => (section.goesTo ? `Goes to ${listText(section.goesTo)}.` : undefined);

/** The plain-text part: the same message, and each channel's post as it will be published (a blog post as text). */
function plainText(input: ApprovalEmailInput, sections: readonly Section[]): string {
  const platform = versionName(input.platform);
  const rule = '-'.repeat(60);
  const published = sections.flatMap((section, i) => [
    ...(i ? [''] : []),
    `${sectionHeading(section)}:`,
    ...(section.goesTo ? [goesToLine(section)!] : []),
    rule,
    ...(i ? [] : [input.image ? `Image: ${input.image.description}` : 'No image yet.', '']),
    section.text,
    rule,
  ]);
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
    ...published,
  ].join('\n');
}

/** The approval e-mail: subject, plain text and HTML (a whole document, every style inline). */
export async function approvalEmailContent(
  input: ApprovalEmailInput,
): Promise<{ subject: string; text: string; html: string }> {
  const platform = versionName(input.platform);
  const review = input.review;
  const subject = review ? `Review for ${platform}: ${input.title}` : `Approve for ${platform}: ${input.title}`;
  const sections: readonly Section[] = input.previews?.length
    ? input.previews
    : [{ label: shortName(input.platform), ...(await ownPreview(input)) }];
  const p = paragraph;
  // A review's second action is a plain link beside the button: one clear primary action per e-mail.
  const actions = review
    ? `${button(input.approveUrl, 'Approve')}${p(`margin-top:10px;margin-bottom:0;font-size:15px;line-height:1.5`, `<a href="${escapeHtml(review.changesUrl)}" style="color:${LINK};text-decoration:underline;font-weight:600">Request changes</a>`)}`
    : button(input.approveUrl, 'Review and approve');
  const html = emailDocument(
    subject,
    `<tr><td style="padding:24px 24px 4px">
${p(`font-size:12px;font-weight:700;letter-spacing:0.08em;text-transform:uppercase;color:${ACCENT}`, review ? 'Review requested' : 'Approval needed')}
<h1 style="margin:0 0 10px;font-family:${FONT};font-size:24px;line-height:1.25;font-weight:700;color:${INK};word-break:break-word">${review ? `Review “${escapeHtml(input.title)}” for ${shortName(input.platform)}` : `Publish “${escapeHtml(input.title)}” to ${escapeHtml(channelsLine(input) ? listText(input.channels!) : shortName(input.platform))}?`}</h1>
${p(`font-size:15px;line-height:1.5;color:${MUTED}`, review ? `In <strong>${escapeHtml(review.workspaceName)}</strong>, for <strong>${platform}</strong>: ${escapeHtml(review.stage)}${input.when ? `, scheduled ${escapeHtml(input.when)}` : ''}.` : `Ready for <strong>${platform}</strong>, scheduled ${escapeHtml(input.when)}.`)}
${input.problem ? p('font-size:15px;line-height:1.5;color:#b42318', `<strong>${escapeHtml(input.problem)}</strong>`) : ''}
${channelsLine(input) ? p(`font-size:15px;line-height:1.5;color:${TEXT}`, `<strong>${escapeHtml(channelsLine(input)!)}</strong>`) : ''}
${actions}
${p(`margin-top:10px;font-size:13px;line-height:1.5;color:${SUBTLE}`, review ? `Nothing happens until you confirm on the review page. The links work for ${input.linkDays} days, for you only.` : `Nothing is published until you confirm on the approval page. The link works for ${input.linkDays} days.`)}
</td></tr>
${sections
  .map(
    (section) => `<tr><td style="padding:12px 24px 8px">
${p(`margin:0;font-size:13px;font-weight:700;color:${MUTED}`, escapeHtml(sectionHeading(section)))}
${section.goesTo ? p(`margin:2px 0 0;font-size:13px;color:${SUBTLE}`, escapeHtml(goesToLine(section)!)) : ''}
</td></tr>
<tr><td style="padding:0 24px 20px">
${section.html}
</td></tr>`,
  )
  .join('\n')}
<tr><td style="padding:4px 24px 24px;border-top:1px solid ${BORDER}">
<div style="height:16px;line-height:16px;font-size:16px">&nbsp;</div>
${actions}
${p(`margin-top:12px;margin-bottom:0;font-size:13px;line-height:1.5;color:${SUBTLE}`, `Or <a href="${escapeHtml(input.scheduleUrl)}" style="color:${LINK};text-decoration:underline">review it on the Schedule page</a>.`)}
</td></tr>`,
  );
  return { subject, text: plainText(input, sections), html };
}

/** What the e-mail gives a channel's preview (channels/channel.ts, EmailPreviewInput). */
export const previewInputOf = (input: ApprovalEmailInput): EmailPreviewInput => ({
  title: input.title,
  topic: input.topic ?? '',
  image: input.image,
  ...(input.linkedIn ? { linkedIn: input.linkedIn } : {}),
});

/**
 * The version's own channel's preview, made in its folder. A channel's own version comes with its channel's preview
 * (`previews`, domain/scheduling.ts); without it, its text as the plain post it is over the blog-sized picture.
 */
async function ownPreview(input: ApprovalEmailInput): Promise<EmailPreview> {
  if (input.platform === 'blog') return wordpressEmailPreview(previewInputOf(input), input.content);
  if (input.platform === 'linkedin') return linkedinEmailPreview(previewInputOf(input), input.content);
  const text = input.content.trim()
    ? escapeHtml(input.content).replace(/\r?\n/g, '<br>')
    : `<span style="color:${SUBTLE}">${NOTHING_YET}</span>`;
  const image = input.image?.cid
    ? `<tr><td style="padding:0;border-top:1px solid ${BORDER}">${imageTag({ description: input.image.description, cid: input.image.cid }, 800)}</td></tr>`
    : '';
  return {
    html: previewFrame(
      `<tr><td style="padding:12px 16px;font-family:${FONT};font-size:15px;line-height:1.5;color:${TEXT};word-break:break-word">${text}</td></tr>${image}`,
    ),
    text: input.content.trim() || NOTHING_YET,
  };
}

/** A link as a button that mail clients draw (a table cell with a background, the link filling it). */
const button = (href: string, label: string) =>
  `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate"><tr>` +
  `<td bgcolor="${ACCENT}" style="border-radius:6px;background-color:${ACCENT}">` +
  `<a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 22px;font-family:${FONT};font-size:16px;font-weight:600;line-height:1.2;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a>` +
  `</td></tr></table>`;

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
