import { PLATFORMS, channelOfVersion, type Article, type Platform } from '@app/shared';
import { request } from '../../api/client';

export const articleQueryKey = (id: string) => ['article', id] as const;

/** docs/product.md (Texts): fallbacks of the create screen's "Error: {message}". */
export const CreateMessages = {
  createFailed: 'Failed to create article',
  /** A reviewer's view of an article and of /create (docs/product.md, Workspaces). */
  readOnly: 'Read only: your role in this workspace does not edit articles.',
  createNotAllowed:
    'Your role in this workspace (Reviewer) reads its articles but does not create them. Ask the workspace owner to give you the Writer role to write one.',
  fetchFailed: 'Failed to fetch article',
  quota: 'OpenAI credits are insufficient. Please update your billing or try again later.',
  draftingFailed: 'Drafting failed. Retry, or write the text by hand.',
  retryFailed: 'Could not restart drafting. Please try again.',
  processEditFailed: 'Failed to process edit',
  updateFailed: Object.fromEntries(
    PLATFORMS.map((platform) => [platform, `Failed to update ${channelOfVersion(platform).versionNoun} content`]),
  ) as Record<Platform, string>,
  imageFailed: { generate: 'Failed to generate image', regenerate: 'Failed to regenerate image' },
  imageLoadFailed: 'Failed to load generated image',
  imageTimeout: 'The image is taking longer than expected. Please try again in a moment.',
} as const;

/** The article's id, whichever of `_id` / `id` the answer carries. */
export const articleIdOf = (a: Pick<Article, '_id' | 'id'>): string => a._id || a.id;

export const fetchArticle = async (id: string): Promise<Article> =>
  (await request('articles.get', { params: { id } })).article;
