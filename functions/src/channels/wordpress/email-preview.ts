/**
 * The WordPress post in the approval e-mail: what publishing sends (the blog text as wordpressPost's HTML) under its
 * featured image and title, as the editor's WordPress preview shows it (domain/email-html.ts, blogPostPreview).
 */
import type { EmailPreview, EmailPreviewInput } from '../channel.js';
import { blogPostPreview } from '../../domain/email-html.js';

export function wordpressEmailPreview(input: EmailPreviewInput, content: string): Promise<EmailPreview> {
  return blogPostPreview(input, content);
}
