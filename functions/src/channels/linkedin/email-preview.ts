/**
 * The LinkedIn post in the approval e-mail, as the editor's LinkedIn card shows it: the author, the commentary
 * publishing sends read back as LinkedIn shows it (hashtags in its link blue) and the 1200×627 picture; in a
 * blog-first bundle the blog post's article card instead of the picture (publish.ts, content.article).
 */
import { linkedInCommentary, linkedInPostAuthor, littleTextSegments } from '@app/shared';
import type { EmailPreview, EmailPreviewInput } from '../channel.js';
import {
  BORDER,
  FONT,
  INK,
  NOTHING_YET,
  SUBTLE,
  TEXT,
  escapeHtml,
  linkCardOrPicture,
  previewFrame,
} from '../../domain/email-html.js';

/** LinkedIn's link blue, for hashtags as LinkedIn shows them. */
const LINKEDIN_BLUE = '#0a66c2';

/** The text LinkedIn shows for the commentary publishing sends: escapes read back, hashtags apart. */
const segmentsOf = (content: string) => littleTextSegments(linkedInCommentary(content));

export async function linkedinEmailPreview(input: EmailPreviewInput, content: string): Promise<EmailPreview> {
  const author = linkedInPostAuthor(input.linkedIn?.identity, input.linkedIn?.mode ?? 'personal');
  const segments = segmentsOf(content);
  const text = segments.length
    ? segments
        .map((s) => {
          const html = escapeHtml(s.text).replace(/\r?\n/g, '<br>');
          return s.kind === 'hashtag' ? `<span style="color:${LINKEDIN_BLUE};font-weight:600">${html}</span>` : html;
        })
        .join('')
    : `<span style="color:${SUBTLE}">${NOTHING_YET}</span>`;
  const avatar = author.initials
    ? `<td width="48" height="48" align="center" valign="middle" style="width:48px;height:48px;border-radius:24px;background-color:#e0e7ff;color:#3730a3;font-family:${FONT};font-size:17px;font-weight:700">${escapeHtml(author.initials)}</td>`
    : `<td width="48" height="48" style="width:48px;height:48px;border-radius:24px;background-color:#e5e7eb"></td>`;
  const attached = linkCardOrPicture(input, { cellStyle: `padding:0;border-top:1px solid ${BORDER}`, height: 627 });
  const html = previewFrame(
    `<tr><td style="padding:12px 16px 0"><table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>${avatar}` +
      `<td style="padding-left:10px;font-family:${FONT}">` +
      `<div style="font-size:14px;font-weight:600;color:${INK};word-break:break-word">${escapeHtml(author.name)}</div>` +
      `<div style="font-size:12px;color:${SUBTLE}">${escapeHtml(author.detail)} · Now</div>` +
      `</td></tr></table></td></tr>` +
      `<tr><td style="padding:10px 16px 12px;font-family:${FONT};font-size:14px;line-height:1.45;color:${TEXT};word-break:break-word">${text}</td></tr>` +
      attached.row,
  );
  return { html, text: attached.text(segments.map((s) => s.text).join('') || NOTHING_YET) };
}
