/**
 * OpenAI implementations of the AI ports (docs/integrations.md, OpenAI).
 *
 * Text uses the Responses API (`responses.create({model, instructions, input})` → `output_text`);
 * images use `images.generate` at 1536x1024 (GPT image models answer with `b64_json` only), then
 * sharp crops to 1200×800 (blog) and 1200×627 (LinkedIn).
 *
 * Retries are ours, not the SDK's (`maxRetries: 0`): the SDK would retry a quota-exhausted 429.
 * - `insufficient_quota` (a 429 whose `code` or `type` says so) → AiQuotaError with OpenAI's message, never retried.
 * - other 429, 408, 409, ≥500 and connection errors → one retry after a short wait (retry-after-ms /
 *   retry-after honoured up to 2 s), then an AiError a person can act on. The call and its retry
 *   share one budget (functions/src/time-budgets.ts): the retry gets what is left, at most the
 *   call's timeout, and is skipped when too little is left, so a job ends before its function.
 * - timeouts are not retried (the caller already waited the whole timeout).
 * AiError codes: ai_auth, ai_forbidden, ai_model_not_found, ai_bad_request, ai_content_refused,
 * ai_rate_limited, ai_server_error, ai_connection, ai_timeout, ai_empty_response, ai_bad_image, ai_error.
 * No message ever carries the API key (OpenAI's own messages are passed through a redactor).
 *
 * The SDK (and sharp) are loaded on first use, so importing this module (every Lambda imports the
 * factory through wiring/articles.ts) costs nothing at cold start.
 */
import type { OpenAI } from 'openai';
import { LINKEDIN_MAX_CHARS } from '@app/shared';
import {
  AiError,
  AiQuotaError,
  type AiSettings,
  type ArticleBrief,
  type ContentGenerator,
  type GeneratedImages,
  type ImageGenerator,
  type Platform,
  type VersionDrafting,
} from '../../domain/ai.js';
import { logger } from '../../logger.js';
import {
  AI_EDIT_TIMEOUT_MS,
  AI_IMAGE_BUDGET_MS,
  AI_IMAGE_TIMEOUT_MS,
  AI_TEXT_BUDGET_MS,
  AI_TEXT_TIMEOUT_MS,
} from '../../time-budgets.js';
import { toPlatformSizes } from './images.js';
import { draftPrompt, editPrompt, imagePrompt } from './prompts.js';
import { fitToLength, stripCodeFence } from './text.js';

export const DEFAULT_TEXT_TIMEOUT_MS = AI_TEXT_TIMEOUT_MS;
/**
 * A GPT edit runs inside the API request (the API functions stop at 25 s, API Gateway at 30 s):
 * it gets this long and no retry, so the person gets our message instead of a gateway error.
 */
export const DEFAULT_EDIT_TIMEOUT_MS = AI_EDIT_TIMEOUT_MS;
export const DEFAULT_IMAGE_TIMEOUT_MS = AI_IMAGE_TIMEOUT_MS;
/** A retry that would get less than this is not made: the first failure is answered instead. */
export const MIN_RETRY_MS = 5_000;
/** Wait before the single retry when the server does not say how long. */
export const DEFAULT_RETRY_DELAY_MS = 500;
/** Longest wait we accept from retry-after-ms / retry-after before the single retry. */
export const MAX_RETRY_DELAY_MS = 2000;

export interface OpenAiOptions {
  /** Per-request timeout in ms (text default 120 s, images 180 s). */
  timeoutMs?: number;
  /** A call and its retry together, in ms (text default 180 s, images 240 s). */
  budgetMs?: number;
  /** Timeout of an in-request GPT edit in ms (default 18 s; never retried). */
  editTimeoutMs?: number;
  /** Wait before the retry when the answer has no retry-after header. */
  retryDelayMs?: number;
}

type ModelSetting = 'TEXT_MODEL' | 'IMAGE_MODEL';
type Sdk = typeof import('openai');

let sdkModule: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> => (sdkModule ??= import('openai'));

/** One configured client plus the retry and error-mapping policy shared by text and images. */
class OpenAiCaller {
  private client?: OpenAI;
  private readonly timeoutMs: number;
  private readonly budgetMs: number;
  private readonly retryDelayMs: number;

  constructor(
    private readonly settings: AiSettings,
    readonly model: string,
    private readonly setting: ModelSetting,
    defaults: { timeoutMs: number; budgetMs: number },
    options: OpenAiOptions = {},
  ) {
    if (!settings.apiKey) throw new AiError('An OpenAI API key is needed for the OpenAI generators.', 'ai_auth');
    if (!model.trim()) throw new AiError(`No OpenAI model is configured: set ${setting}.`, 'ai_model_not_found');
    this.timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
    this.budgetMs = options.budgetMs ?? defaults.budgetMs;
    this.retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  }

  /** `timeoutMs`/`retry` override the caller's defaults for one call (in-request edits). */
  async call<T>(
    what: string,
    fn: (client: OpenAI, timeoutMs: number) => Promise<T>,
    once: { timeoutMs?: number; retry?: boolean } = {},
  ): Promise<T> {
    const started = Date.now();
    const timeoutMs = Math.min(once.timeoutMs ?? this.timeoutMs, this.budgetMs);
    const sdk = await loadSdk();
    this.client ??= new sdk.OpenAI({
      apiKey: this.settings.apiKey,
      baseURL: this.settings.baseURL || undefined,
      maxRetries: 0,
      timeout: this.timeoutMs,
    });
    const client = this.client;
    try {
      return await fn(client, timeoutMs);
    } catch (err) {
      if (once.retry === false || !isRetryable(sdk, err)) throw this.toAiError(sdk, err, timeoutMs);
      const wait = retryDelay(err, this.retryDelayMs);
      // The retry gets what is left of the budget: a first call that failed late leaves less.
      const left = Math.min(timeoutMs, this.budgetMs - (Date.now() - started) - wait);
      if (left < MIN_RETRY_MS) {
        logger.warn('OpenAI call failed; no time left for a retry', {
          what,
          model: this.model,
          budgetMs: this.budgetMs,
        });
        throw this.toAiError(sdk, err, timeoutMs);
      }
      const api = err instanceof sdk.APIError ? err : undefined;
      logger.warn('OpenAI call failed; retrying once', {
        what,
        model: this.model,
        status: api?.status,
        code: api ? (api.code ?? api.type) : undefined,
        requestId: api?.requestID,
        waitMs: wait,
      });
      await sleep(wait);
      try {
        return await fn(client, left);
      } catch (again) {
        throw this.toAiError(sdk, again, left);
      }
    }
  }

  /** Maps an SDK error to AiQuotaError / AiError with a message a person can act on. */
  private toAiError(sdk: Sdk, err: unknown, timeoutMs: number): Error {
    const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk;
    if (err instanceof AiError || err instanceof AiQuotaError) return err;
    const redact = (s: string) => redactSecrets(s, this.settings.apiKey);
    if (isQuota(sdk, err)) return new AiQuotaError(redact(openAiMessage(err) || 'OpenAI credits insufficient'));
    if (err instanceof APIConnectionTimeoutError) {
      return new AiError(
        `OpenAI did not answer within ${Math.ceil(timeoutMs / 1000)} s. Try again in a moment.`,
        'ai_timeout',
      );
    }
    if (err instanceof APIUserAbortError) return new AiError('The OpenAI request was cancelled.', 'ai_timeout');
    if (err instanceof APIConnectionError) {
      const where = this.settings.baseURL ? ` at ${safeHost(this.settings.baseURL)} (OPENAI_BASE_URL)` : '';
      return new AiError(
        `Could not reach OpenAI${where}. Check the network connection and try again.`,
        'ai_connection',
      );
    }
    if (err instanceof APIError) {
      const detail = redact(openAiMessage(err));
      const status = err.status ?? 0;
      if (status === 401) {
        return new AiError('The OpenAI API key was refused. Check the openai_api_key setting.', 'ai_auth');
      }
      if (status === 404 || err.code === 'model_not_found') {
        const base = this.settings.baseURL
          ? ` (or that OPENAI_BASE_URL ${safeHost(this.settings.baseURL)} is right)`
          : '';
        return new AiError(
          `The OpenAI model "${this.model}" was not found or this API key cannot use it. Set ${this.setting} to a model your account can use${base}.`,
          'ai_model_not_found',
        );
      }
      if (status === 403) {
        return new AiError(
          `OpenAI refused access to the model "${this.model}"${detail ? `: ${detail}` : ''}. Check your OpenAI organization's access, or set ${this.setting} to another model.`,
          'ai_forbidden',
        );
      }
      if (status === 429) {
        return new AiError('OpenAI is rate-limiting this API key. Wait a minute and try again.', 'ai_rate_limited');
      }
      if (status >= 500) {
        return new AiError(
          `OpenAI had a server error (HTTP ${status}). Try again in a few minutes.`,
          'ai_server_error',
        );
      }
      if (err.code === 'moderation_blocked' || err.code === 'content_policy_violation') {
        return new AiError(
          `OpenAI's safety system refused this request${detail ? `: ${detail}` : ''}. Change the text or image description and try again.`,
          'ai_content_refused',
        );
      }
      if (status === 400 || status === 422) {
        return new AiError(`OpenAI rejected the request${detail ? `: ${detail}` : ''}`, 'ai_bad_request');
      }
      return new AiError(`OpenAI answered with an error (HTTP ${status})${detail ? `: ${detail}` : ''}`, 'ai_error');
    }
    const message = err instanceof Error ? err.message : String(err);
    return new AiError(`The OpenAI call failed: ${redact(message)}`, 'ai_error');
  }
}

export class OpenAiContentGenerator implements ContentGenerator {
  readonly kind = 'openai' as const;
  private readonly api: OpenAiCaller;
  private readonly editTimeoutMs: number;

  constructor(settings: AiSettings, options: OpenAiOptions = {}) {
    this.api = new OpenAiCaller(
      settings,
      settings.textModel,
      'TEXT_MODEL',
      { timeoutMs: DEFAULT_TEXT_TIMEOUT_MS, budgetMs: AI_TEXT_BUDGET_MS },
      options,
    );
    this.editTimeoutMs = options.editTimeoutMs ?? DEFAULT_EDIT_TIMEOUT_MS;
  }

  async draft(brief: ArticleBrief, platform: Platform): Promise<string> {
    return finish(await this.complete(draftPrompt(brief, platform)), platform);
  }

  async draftVersion(brief: ArticleBrief, drafting: VersionDrafting): Promise<string> {
    return drafting.fit(await this.complete(drafting.prompt(brief)));
  }

  async edit(input: { brief: ArticleBrief; platform: Platform; content: string; request: string }): Promise<string> {
    return finish(
      await this.complete(editPrompt(input), { timeoutMs: this.editTimeoutMs, retry: false }),
      input.platform,
    );
  }

  private async complete(
    prompt: { instructions: string; input: string },
    once?: { timeoutMs: number; retry: boolean },
  ): Promise<string> {
    const response = await this.api.call(
      'text',
      (client, timeout) =>
        client.responses.create(
          {
            model: this.api.model,
            instructions: prompt.instructions,
            input: prompt.input,
            store: false,
          },
          { timeout },
        ),
      once,
    );
    if (response.status === 'incomplete' && response.incomplete_details?.reason === 'content_filter') {
      throw new AiError(
        "OpenAI's content filter stopped the answer. Change the brief and try again.",
        'ai_content_refused',
      );
    }
    const text = stripCodeFence(response.output_text ?? '');
    if (!text) {
      throw new AiError(
        `OpenAI returned an empty answer. Try again, or set TEXT_MODEL to another model (now "${this.api.model}").`,
        'ai_empty_response',
      );
    }
    return text;
  }
}

export class OpenAiImageGenerator implements ImageGenerator {
  readonly kind = 'openai' as const;
  private readonly api: OpenAiCaller;

  constructor(settings: AiSettings, options: OpenAiOptions = {}) {
    this.api = new OpenAiCaller(
      settings,
      settings.imageModel,
      'IMAGE_MODEL',
      { timeoutMs: DEFAULT_IMAGE_TIMEOUT_MS, budgetMs: AI_IMAGE_BUDGET_MS },
      options,
    );
  }

  async generate(input: { brief: ArticleBrief; description: string }): Promise<GeneratedImages> {
    const prompt = imagePrompt(input.brief, input.description);
    const response = await this.api.call('image', (client, timeout) =>
      client.images.generate({ model: this.api.model, prompt, size: '1536x1024', n: 1 }, { timeout }),
    );
    const b64 = response.data?.[0]?.b64_json;
    if (!b64) {
      throw new AiError(
        `OpenAI returned no image data. Check that IMAGE_MODEL ("${this.api.model}") is a GPT image model.`,
        'ai_empty_response',
      );
    }
    try {
      return await toPlatformSizes(Buffer.from(b64, 'base64'), 'jpeg');
    } catch {
      throw new AiError('OpenAI returned an image that could not be read. Try generating it again.', 'ai_bad_image');
    }
  }
}

/** LinkedIn text always leaves here within LINKEDIN_MAX_CHARS, cut at a boundary if the model ran long. */
function finish(text: string, platform: Platform): string {
  return platform === 'linkedin' ? fitToLength(text, LINKEDIN_MAX_CHARS) : text;
}

function isQuota(sdk: Sdk, err: unknown): boolean {
  return err instanceof sdk.APIError && (err.code === 'insufficient_quota' || err.type === 'insufficient_quota');
}

function isRetryable(sdk: Sdk, err: unknown): boolean {
  if (isQuota(sdk, err)) return false;
  if (err instanceof sdk.APIConnectionTimeoutError || err instanceof sdk.APIUserAbortError) return false;
  if (err instanceof sdk.APIConnectionError) return true;
  if (!(err instanceof sdk.APIError)) return false;
  const should = err.headers?.get('x-should-retry');
  if (should === 'false') return false;
  if (should === 'true') return true;
  const status = err.status ?? 0;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** retry-after-ms, else retry-after (seconds or an HTTP date), capped at MAX_RETRY_DELAY_MS. */
export function retryDelay(err: unknown, fallbackMs: number): number {
  const headers =
    (err as { headers?: unknown } | undefined)?.headers instanceof Headers
      ? (err as { headers: Headers }).headers
      : undefined;
  let ms: number | undefined;
  const afterMs = headers?.get('retry-after-ms');
  if (afterMs && Number.isFinite(Number(afterMs))) ms = Number(afterMs);
  const after = headers?.get('retry-after');
  if (ms === undefined && after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) ms = seconds * 1000;
    else if (!Number.isNaN(Date.parse(after))) ms = Date.parse(after) - Date.now();
  }
  return Math.min(Math.max(ms ?? fallbackMs, 0), MAX_RETRY_DELAY_MS);
}

function openAiMessage(err: unknown): string {
  const body = (err as { error?: unknown } | undefined)?.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message.trim();
  return '';
}

/** Removes the key itself and anything shaped like an OpenAI key from a message. */
export function redactSecrets(message: string, apiKey?: string): string {
  let out = message;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('[redacted]');
  return out.replace(/\bsk-[A-Za-z0-9_\-*]{6,}/g, '[redacted]');
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured address';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
