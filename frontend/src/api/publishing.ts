import type { Article } from '@app/shared';
import { api } from './client';

const id = (articleId: string) => encodeURIComponent(articleId);

export type PostingMode = Article['linkedInMode'];

export interface WordPressPublishAnswer {
  success: boolean;
  post: { link: string };
  article?: Article;
  message?: string;
}

export interface LinkedInPublishAnswer {
  success: boolean;
  post: { url: string };
  article?: Article;
  message?: string;
}

export interface PostingModeAnswer {
  success: boolean;
  mode: PostingMode;
  message?: string;
}

/**
 * The dedicated publish calls (blog → WordPress, LinkedIn) and the per-article LinkedIn
 * posting mode. Failures carry `message` and, where the UI branches on it, `code`
 * (e.g. `linkedin_token_invalid`).
 */
export const publishingApi = {
  wordpress: (articleId: string) => api.post<WordPressPublishAnswer>(`/wordpress/publish/${id(articleId)}`),
  linkedin: (articleId: string) => api.post<LinkedInPublishAnswer>(`/linkedin/publish/${id(articleId)}`),
  setPostingMode: (articleId: string, mode: PostingMode) =>
    api.post<PostingModeAnswer>(`/linkedin/article/${id(articleId)}/posting-mode`, { mode }),
};
