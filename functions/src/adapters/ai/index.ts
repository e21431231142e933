/**
 * Picks the AI generators: OpenAI when an API key is configured (the user's `openai_api_key`
 * setting, else env OPENAI_API_KEY), otherwise the offline generators (docs/architecture.md, Local and AWS).
 */
import type { AiSettings, ContentGenerator, ImageGenerator } from '../../domain/ai.js';
import { OfflineContentGenerator, OfflineImageGenerator } from './offline/index.js';
import { OpenAiContentGenerator, OpenAiImageGenerator, type OpenAiOptions } from './openai.js';

/**
 * Default models (names come from config, with current defaults). `gpt-5-mini` has an
 * announced shutdown on 2026-12-11 (openai 7.57 `shared.ts`), so the text default is its successor
 * tier; `gpt-image-1` and DALL·E are gone (docs/integrations.md, OpenAI).
 */
export const DEFAULT_TEXT_MODEL = 'gpt-5.4-mini';
export const DEFAULT_IMAGE_MODEL = 'gpt-image-1.5';

/**
 * Settings from env OPENAI_API_KEY, OPENAI_BASE_URL, TEXT_MODEL and IMAGE_MODEL. `apiKeyOverride`
 * (the user's openai_api_key setting) wins over OPENAI_API_KEY; blank values count as unset.
 */
export function aiSettingsFromEnv(apiKeyOverride?: string | null, env: NodeJS.ProcessEnv = process.env): AiSettings {
  const value = (v: string | null | undefined) => v?.trim() || undefined;
  return {
    apiKey: value(apiKeyOverride) ?? value(env.OPENAI_API_KEY),
    baseURL: value(env.OPENAI_BASE_URL),
    textModel: value(env.TEXT_MODEL) ?? DEFAULT_TEXT_MODEL,
    imageModel: value(env.IMAGE_MODEL) ?? DEFAULT_IMAGE_MODEL,
  };
}

export function createContentGenerator(settings: AiSettings, options?: OpenAiOptions): ContentGenerator {
  return settings.apiKey ? new OpenAiContentGenerator(settings, options) : new OfflineContentGenerator();
}

export function createImageGenerator(settings: AiSettings, options?: OpenAiOptions): ImageGenerator {
  return settings.apiKey ? new OpenAiImageGenerator(settings, options) : new OfflineImageGenerator();
}

export { AiError, AiQuotaError } from '../../domain/ai.js';
export { OfflineContentGenerator, OfflineImageGenerator, OFFLINE_EDIT_NEEDS_KEY } from './offline/index.js';
export { OpenAiContentGenerator, OpenAiImageGenerator, type OpenAiOptions } from './openai.js';
