/**
 * The Ghost post in the approval e-mail: Ghost gets the blog text as the same HTML as WordPress (channel.ts), so its
 * preview is the blog post's (domain/email-html.ts, blogPostPreview).
 */
import type { EmailPreview, EmailPreviewInput } from '../channel.js';
import { blogPostPreview } from '../../domain/email-html.js';

export function ghostEmailPreview(input: EmailPreviewInput, content: string): Promise<EmailPreview> {
  return blogPostPreview(input, content);
}
