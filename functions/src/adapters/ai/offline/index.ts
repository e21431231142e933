/**
 * Offline implementations of the AI ports, used when no OpenAI key is configured (docs/architecture.md,
 * Local and AWS): drafts from the brief (draft.ts), mechanical edits (edit.ts), an image card (card.ts).
 */
import type { ArticleBrief, ContentGenerator, Platform, VersionDrafting } from '../../../domain/ai.js';
import { offlineBlogDraft, offlineLinkedInDraft } from './draft.js';
import { offlineEdit } from './edit.js';

export { OFFLINE_BLOG_MARKER, OFFLINE_LINKEDIN_MARKER } from './draft.js';
export { OFFLINE_EDIT_NEEDS_KEY } from './edit.js';
export { OfflineImageGenerator } from './card.js';

export class OfflineContentGenerator implements ContentGenerator {
  readonly kind = 'offline' as const;

  async draft(brief: ArticleBrief, platform: Platform): Promise<string> {
    return platform === 'blog' ? offlineBlogDraft(brief) : offlineLinkedInDraft(brief);
  }

  async edit(input: { brief: ArticleBrief; platform: Platform; content: string; request: string }): Promise<string> {
    return offlineEdit(input);
  }

  async draftVersion(brief: ArticleBrief, drafting: VersionDrafting): Promise<string> {
    return drafting.offline(brief);
  }
}
