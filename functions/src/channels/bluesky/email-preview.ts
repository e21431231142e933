/**
 * The Bluesky post in the approval e-mail, as the editor's Bluesky preview shows it: the account, the text with its
 * links and hashtags in Bluesky's blue, and the picture, or in a blog-first bundle the blog post's link card
 * (channel.ts: `app.bsky.embed.external`).
 */
import { findHashtags, findLinks } from '@app/shared/channels/bluesky';
import type { EmailPreview, EmailPreviewInput } from '../channel.js';
import {
  FONT,
  INK,
  NOTHING_YET,
  SUBTLE,
  TEXT,
  escapeHtml,
  linkCardOrPicture,
  previewFrame,
} from '../../domain/email-html.js';

/** Bluesky's link blue. */
const BLUESKY_BLUE = '#1083fe';

/** The text as HTML, its links and hashtags coloured as Bluesky shows them. */
function richText(content: string): string {
  const marks = [...findLinks(content), ...findHashtags(content)].sort((a, b) => a.start - b.start);
  let html = '';
  let at = 0;
  for (const mark of marks) {
    if (mark.start < at) continue;
    html += escapeHtml(content.slice(at, mark.start));
    html += `<span style="color:${BLUESKY_BLUE}">${escapeHtml(content.slice(mark.start, mark.end))}</span>`;
    at = mark.end;
  }
  return (html + escapeHtml(content.slice(at))).replace(/\r?\n/g, '<br>');
}

export async function blueskyEmailPreview(input: EmailPreviewInput, content: string): Promise<EmailPreview> {
  const text = content.trim() ? richText(content) : `<span style="color:${SUBTLE}">${NOTHING_YET}</span>`;
  const attached = linkCardOrPicture(input, { cellStyle: 'padding:0 16px 14px', height: 800 });
  const html = previewFrame(
    `<tr><td style="padding:12px 16px 0;font-family:${FONT}">` +
      `<div style="font-size:14px;font-weight:600;color:${INK}">Your Bluesky account</div>` +
      `<div style="font-size:12px;color:${SUBTLE}">Now</div></td></tr>` +
      `<tr><td style="padding:8px 16px 12px;font-family:${FONT};font-size:15px;line-height:1.45;color:${TEXT};word-break:break-word">${text}</td></tr>` +
      attached.row,
  );
  return { html, text: attached.text(content.trim() || NOTHING_YET) };
}
