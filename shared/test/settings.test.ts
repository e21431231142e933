import { describe, expect, it } from 'vitest';
import {
  SaveSettingSchema,
  SettingMessages,
  isHiddenSettingKey,
  normalizeSettingKey,
  typedSettingKey,
} from '../src/index.js';
import { GhostMessages, ghostAdminKeyProblem } from '../src/channels/ghost/index.js';

const keyIssues = (key: string) => {
  const result = SaveSettingSchema().safeParse({ key, value: 'v' });
  return result.success ? [] : result.error.issues.filter((i) => i.path[0] === 'key').map((i) => i.message);
};

describe('setting key names', () => {
  it.each(['', '   ', '\t', ' \n '])('a blank key name %j is refused with "Key name is required"', (key) => {
    expect(keyIssues(key)).toEqual([SettingMessages.keyRequired]);
  });

  it('a name of spaces typed into the form stays blank, so the schema refuses it instead of saving underscores', () => {
    expect(typedSettingKey('   ')).toBe('   ');
    expect(keyIssues(typedSettingKey('   '))).toEqual([SettingMessages.keyRequired]);
  });

  it('while typing, spaces between words become underscores and letters lower case', () => {
    expect(typedSettingKey('My OpenAI Key')).toBe('my_openai_key');
    expect(typedSettingKey('my ')).toBe('my ');
    expect(typedSettingKey('my k')).toBe('my_k');
  });

  it.each(['My OpenAI Key', '  padded key  ', 'two  spaces', 'tab\tseparated', 'already_fine'])(
    'the typed form of %j saves under the same key as the raw text',
    (raw) => {
      const parsed = SaveSettingSchema().parse({ key: typedSettingKey(raw), value: 'v' });
      expect(parsed.key).toBe(normalizeSettingKey(raw));
    },
  );
});

describe('channel connection keys', () => {
  it.each(['wordpress_app_password', 'linkedin_client_secret', 'ghost_admin_api_key', 'ghost_site_url'])(
    '%s belongs to its panel: hidden from the API Keys list, not saved through it',
    (key) => {
      expect(isHiddenSettingKey(key)).toBe(true);
      expect(keyIssues(key)).toEqual([SettingMessages.integrationKey]);
    },
  );

  it('a Ghost Admin API key is id:secret (24 and 64 hex); a Content API key or a cut key is named', () => {
    const key = `${'a1'.repeat(12)}:${'0f'.repeat(32)}`;
    expect(ghostAdminKeyProblem(` ${key} `)).toBeNull();
    expect(ghostAdminKeyProblem('ab'.repeat(13))).toBe(GhostMessages.contentKeyGiven);
    expect(ghostAdminKeyProblem(key.slice(0, -1))).toBe(GhostMessages.adminKeyShape);
    expect(ghostAdminKeyProblem('  ')).toBe(GhostMessages.adminKeyRequired);
  });
});
