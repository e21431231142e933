import type { Article, CreateArticleInput, GptEditInput, Platform, ScheduleInput } from '@app/shared';
import { api } from './client';

const path = (id: string) => `/articles/${encodeURIComponent(id)}`;

export interface ArticleAnswer {
  success?: boolean;
  article: Article;
}

export interface ScheduleAnswer extends ArticleAnswer {
  /** The ISO time the platform is now scheduled for. */
  scheduledFor?: string;
}

export interface GptEditAnswer extends ArticleAnswer {
  editedContent: string;
}

/** The article calls (functions/src/routes.ts). Article calls carry their error text in the body's `message`. */
export const articlesApi = {
  /** 201: saved at once with `generation.status: 'pending'`; both versions are drafted in the background. */
  create: (input: CreateArticleInput) => api.post<ArticleAnswer>('/articles', input),
  get: (id: string) => api.get<{ article: Article }>(path(id)),
  list: () => api.get<{ articles: Article[] }>('/articles'),
  unpublished: () => api.get<{ articles: Article[] }>('/articles/unpublished'),
  published: () => api.get<{ articles: Article[] }>('/articles/published'),
  updateContent: (id: string, platform: Platform, content: string) =>
    api.put<ArticleAnswer>(`${path(id)}/${platform}`, { content }),
  /** Schedule one platform; `datetime` is an ISO timestamp (toISOString()). */
  schedule: (id: string, input: ScheduleInput) => api.put<ScheduleAnswer>(`${path(id)}/schedule`, input),
  /** 202: drafts again the versions that are still empty. */
  retryGeneration: (id: string) => api.post<ArticleAnswer>(`${path(id)}/generate`),
  gptEdit: (input: GptEditInput) => api.post<GptEditAnswer>('/gpt-edit', input),
};
