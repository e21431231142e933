import { describe, expect, it } from 'vitest';
import { SaveSettingSchema, SettingMessages, normalizeSettingKey, typedSettingKey } from '../src/index.js';

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
