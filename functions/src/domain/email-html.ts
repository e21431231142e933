/**
 * What the e-mails' HTML shares (domain/approval-email.ts and each channel's preview in its folder,
 * functions/src/channels/<id>/email-preview.ts): mail clients drop a page's <style> and many ignore classes, so every
 * style is inline, with these colours and font, and a preview is a table at most 590 px wide inside the 640 px card.
 */
import type { EmailPreview, EmailPreviewInput } from '../channels/channel.js';

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
export const INK = '#111827';
export const TEXT = '#1f2937';
export const MUTED = '#4b5563';
export const SUBTLE = '#6b7280';
export const BORDER = '#e5e7eb';
export const ACCENT = '#4f46e5';
export const LINK = '#4338ca';
/** The card is 640 px at most, 24 px padding: 592 px inside, the preview's 1 px borders aside. */
export const IMAGE_WIDTH = 590;

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

export const imageTag = (image: { description: string; cid: string }, height: number) =>
  `<img src="cid:${escapeHtml(image.cid)}" alt="${escapeHtml(image.description)}" width="${IMAGE_WIDTH}" height="${Math.round((IMAGE_WIDTH * height) / 1200)}" style="display:block;width:100%;max-width:${IMAGE_WIDTH}px;height:auto;border:0">`;

/** The blog post publishing sends for the blog text (shared/src/markdown.ts): its title and sanitized HTML. */
export async function blogPostHtml(title: string, content: string): Promise<{ title: string; html: string }> {
  // Loaded with the first e-mail of a blog post, not at every cold start of the worker (as publishing does).
  const { wordpressPost } = await import('@app/shared/markdown');
  return wordpressPost({ title, blogContent: content });
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

/** A preview's frame: a bordered table of `rows` (table rows). */
export const previewFrame = (rows: string): string =>
  `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate;border:1px solid ${BORDER};border-radius:8px;overflow:hidden">${rows}</table>`;

/** "Nothing to preview yet." as a preview shows it, inline. */
export const NOTHING_YET = 'Nothing to preview yet.';

/**
 * A blog post as its channel publishes it: featured image (1200×800), title, the sanitized HTML publishing sends,
 * nothing cut; its text part the title and the post as text.
 */
export async function blogPostPreview(input: EmailPreviewInput, content: string): Promise<EmailPreview> {
  const post = await blogPostHtml(input.title, content);
  // An image whose file could not be read is left out; only an article without one says so.
  const image = input.image?.cid
    ? imageTag({ description: input.image.description, cid: input.image.cid }, 800)
    : input.image
      ? ''
      : `<p style="margin:16px 18px 0;padding:10px 12px;border:1px dashed #d1d5db;border-radius:6px;font-size:13px;color:${SUBTLE}">No featured image yet: add one in the Image step.</p>`;
  const body = content.trim()
    ? withInlineStyles(post.html)
    : `<p style="margin:0 0 14px;font-size:15px;color:${SUBTLE}">${NOTHING_YET}</p>`;
  const html = previewFrame(
    `<tr><td style="padding:0">${image}</td></tr>` +
      `<tr><td style="padding:16px 18px 4px;font-family:${FONT}">` +
      `<h1 style="margin:0 0 12px;font-size:26px;line-height:1.25;font-weight:700;color:${INK};word-break:break-word">${escapeHtml(post.title)}</h1>` +
      `<div style="word-break:break-word">${body}</div>` +
      `</td></tr>`,
  );
  const text = [post.title, '', (content.trim() && postText(post.html)) || NOTHING_YET].join('\n');
  return { html, text };
}

/**
 * A blog-first bundle's social post: the card of the blog post it links to (its title and topic), whose address is
 * known once the blog post is live. As a table row of a preview, and as text.
 */
export function blogLinkCard(input: EmailPreviewInput): { row: string; text: string } {
  const summary = input.topic.trim();
  return {
    row:
      `<tr><td style="padding:0 16px 14px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate;border:1px solid ${BORDER};border-radius:8px;background-color:#f9fafb">` +
      `<tr><td style="padding:10px 12px;font-family:${FONT}">` +
      `<div style="font-size:14px;font-weight:700;color:${INK};word-break:break-word">${escapeHtml(input.title)}</div>` +
      (summary
        ? `<div style="margin-top:2px;font-size:13px;color:${MUTED};word-break:break-word">${escapeHtml(summary)}</div>`
        : '') +
      `<div style="margin-top:4px;font-size:12px;color:${SUBTLE}">The blog post’s link, once it is live</div>` +
      `</td></tr></table></td></tr>`,
    text: `[Link: ${input.title} — the blog post’s address, once it is live]`,
  };
}

/**
 * What a social post carries under its text: in a blog-first bundle the blog post's link card (and its line in the
 * text part), else the picture in a cell of the channel's style at its height (of 1200 wide), else nothing.
 */
export function linkCardOrPicture(
  input: EmailPreviewInput,
  picture: { cellStyle: string; height: number },
): { row: string; text(plain: string): string } {
  if (input.blogLink) {
    const card = blogLinkCard(input);
    return { row: card.row, text: (plain) => `${plain}\n\n${card.text}` };
  }
  const row = input.image?.cid
    ? `<tr><td style="${picture.cellStyle}">${imageTag({ description: input.image.description, cid: input.image.cid }, picture.height)}</td></tr>`
    : '';
  return { row, text: (plain) => plain };
}
