/**
 * Ports for AI work. Two implementations each: OpenAI (when the user's `openai_api_key` setting or
 * env OPENAI_API_KEY is there) and an offline drafting one that composes from the article's own fields.
 */
import type { Article } from '@app/shared';

export type Platform = 'blog' | 'linkedin';

/** What the generators know about an article: the fields its author wrote. */
export type ArticleBrief = Pick<Article, 'title' | 'topic' | 'keyword' | 'details' | 'imageDescription' | 'tags'>;

export interface ContentGenerator {
  readonly kind: 'openai' | 'offline';
  /** A full draft for one platform. LinkedIn drafts always fit LINKEDIN_MAX_CHARS. */
  draft(brief: ArticleBrief, platform: Platform): Promise<string>;
  /** Applies a person's edit request to the current text of one platform. */
  edit(input: { brief: ArticleBrief; platform: Platform; content: string; request: string }): Promise<string>;
  /** A draft of a channel's own version (channels/channel.ts, ChannelVersion), by its own rules; absent: none. */
  draftVersion?(brief: ArticleBrief, drafting: VersionDrafting): Promise<string>;
}

/**
 * How a channel's own version is drafted (its folder says it): the AI's prompt, what makes the AI's answer fit the
 * channel's rule (shortened rather than refused), and the draft composed without AI, which carries the product's
 * offline-draft note (shared/src/offline-draft.ts).
 */
export interface VersionDrafting {
  prompt(brief: ArticleBrief): { instructions: string; input: string };
  fit(text: string): string;
  offline(brief: ArticleBrief): string;
}

export interface GeneratedImages {
  /** 1200×800, the blog's featured image (3:2). */
  blog: Buffer;
  /** 1200×627, LinkedIn's recommended size. */
  linkedin: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  /**
   * The picture both sizes were cut from, upright and without metadata (at most 2400 px a side), kept so
   * that a focal point can be chosen later (domain/images.ts); absent when the sizes are laid out one by
   * one (the offline cards).
   */
  original?: { body: Buffer; contentType: 'image/png' | 'image/jpeg'; width: number; height: number };
}

export interface ImageGenerator {
  readonly kind: 'openai' | 'offline';
  generate(input: { brief: ArticleBrief; description: string }): Promise<GeneratedImages>;
}

/** The account behind the API key has no credit left: never retried, kept as the article's lastError. */
export class AiQuotaError extends Error {
  readonly code = 'insufficient_quota';
  constructor(message = 'OpenAI credits insufficient') {
    super(message);
    this.name = 'AiQuotaError';
  }
}

/** Any other AI failure, with a message a person can act on (bad key, model missing, timeout, …). */
export class AiError extends Error {
  constructor(
    message: string,
    readonly code = 'ai_error',
  ) {
    super(message);
    this.name = 'AiError';
  }
}

/**
 * The request reached no service and changed nothing: the offline editor (no OpenAI key) cannot carry it out on
 * the text as it is. Not a failure of anything we call, so the API answers it as a refusal of the current state
 * (domain/articles.ts), not as a gateway error.
 */
export class AiEditNotApplied extends AiError {
  constructor(message: string, code: 'ai_unavailable' | 'edit_not_applicable') {
    super(message, code);
    this.name = 'AiEditNotApplied';
  }
}

/**
 * AiError codes of failures that a later attempt may not meet: rate limits, OpenAI server errors,
 * connection failures and time-outs (the adapter already retried once). Not insufficient_quota,
 * a refused key or a missing model: retrying cannot fix those.
 */
export const TRANSIENT_AI_ERROR_CODES: ReadonlySet<string> = new Set([
  'ai_rate_limited',
  'ai_server_error',
  'ai_connection',
  'ai_timeout',
]);

export interface AiSettings {
  apiKey?: string;
  baseURL?: string;
  textModel: string;
  imageModel: string;
}
