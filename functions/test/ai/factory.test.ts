import { describe, expect, it } from 'vitest';
import {
  aiSettingsFromEnv,
  createContentGenerator,
  createImageGenerator,
  DEFAULT_IMAGE_MODEL,
  DEFAULT_TEXT_MODEL,
} from '../../src/adapters/ai/index.js';
import { OfflineContentGenerator, OfflineImageGenerator } from '../../src/adapters/ai/offline/index.js';
import { OpenAiContentGenerator, OpenAiImageGenerator } from '../../src/adapters/ai/openai.js';

describe('aiSettingsFromEnv', () => {
  it('reads OPENAI_API_KEY, OPENAI_BASE_URL, TEXT_MODEL and IMAGE_MODEL', () => {
    const env = {
      OPENAI_API_KEY: 'sk-env',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      TEXT_MODEL: 't',
      IMAGE_MODEL: 'i',
    };
    expect(aiSettingsFromEnv(undefined, env)).toEqual({
      apiKey: 'sk-env',
      baseURL: 'http://127.0.0.1:9/v1',
      textModel: 't',
      imageModel: 'i',
    });
  });

  it('prefers the user’s openai_api_key setting and treats blank values as unset', () => {
    expect(aiSettingsFromEnv('sk-user', { OPENAI_API_KEY: 'sk-env' }).apiKey).toBe('sk-user');
    expect(aiSettingsFromEnv('  ', { OPENAI_API_KEY: 'sk-env' }).apiKey).toBe('sk-env');
    expect(aiSettingsFromEnv(null, { OPENAI_API_KEY: '' }).apiKey).toBeUndefined();
  });

  it('defaults to current models (not the retired gpt-image-1 / DALL·E)', () => {
    const s = aiSettingsFromEnv(undefined, { TEXT_MODEL: ' ', IMAGE_MODEL: '' });
    expect(s).toEqual({
      apiKey: undefined,
      baseURL: undefined,
      textModel: DEFAULT_TEXT_MODEL,
      imageModel: DEFAULT_IMAGE_MODEL,
    });
    expect(DEFAULT_IMAGE_MODEL).toBe('gpt-image-1.5');
    expect(DEFAULT_TEXT_MODEL).not.toMatch(/^gpt-5-mini$|^gpt-4|^gpt-3/);
  });
});

describe('createContentGenerator / createImageGenerator', () => {
  it('chooses OpenAI when there is a key and the offline generators when there is none', () => {
    const withKey = aiSettingsFromEnv('sk-user', {});
    const without = aiSettingsFromEnv(undefined, {});
    expect(createContentGenerator(withKey)).toBeInstanceOf(OpenAiContentGenerator);
    expect(createContentGenerator(withKey).kind).toBe('openai');
    expect(createImageGenerator(withKey)).toBeInstanceOf(OpenAiImageGenerator);
    expect(createContentGenerator(without)).toBeInstanceOf(OfflineContentGenerator);
    expect(createImageGenerator(without)).toBeInstanceOf(OfflineImageGenerator);
    expect(createImageGenerator(without).kind).toBe('offline');
  });
});
