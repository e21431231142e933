import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  BlogContentSchema,
  ChangePasswordSchema,
  CreateArticleSchema,
  EmailTestSchema,
  GptEditSchema,
  ImageRequestSchema,
  LinkedInContentSchema,
  LinkedInCredentialsSchema,
  LoginSchema,
  RegisterSchema,
  SaveSettingSchema,
  SheetsImportSchema,
  WebhookSchema,
  WordPressCredentialsSchema,
  firstIssueMessage,
  hasUnsafeCharacters,
  unsafeCharactersMessage,
} from '../src/index.js';

const REFUSED = [
  ['NUL', '\u0000'],
  ['BEL', '\u0007'],
  ['backspace', '\b'],
  ['vertical tab', '\u000b'],
  ['form feed', '\f'],
  ['escape', '\u001b'],
  ['unit separator', '\u001f'],
  ['DEL', '\u007f'],
  ['C1 NEL', '\u0085'],
  ['C1 CSI', '\u009b'],
  ['LRE', '\u202a'],
  ['RLE', '\u202b'],
  ['PDF', '\u202c'],
  ['LRO', '\u202d'],
  ['RLO', '\u202e'],
  ['LRI', '\u2066'],
  ['RLI', '\u2067'],
  ['FSI', '\u2068'],
  ['PDI', '\u2069'],
] as const;

const ALLOWED = [
  ['tab', '\t'],
  ['line feed', '\n'],
  ['carriage return', '\r'],
  ['LRM', '\u200e'],
  ['RLM', '\u200f'],
  ['ALM', '\u061c'],
  ['zero-width joiner (emoji)', '👩\u200d💻'],
  ['Hebrew', 'שלום'],
  ['Arabic', 'مرحبا'],
  ['non-breaking space', '\u00a0'],
] as const;

describe('hasUnsafeCharacters', () => {
  it.each(REFUSED)('refuses %s', (_name, ch) => {
    expect(hasUnsafeCharacters(`a${ch}b`)).toBe(true);
  });
  it.each(ALLOWED)('allows %s', (_name, ch) => {
    expect(hasUnsafeCharacters(`a${ch}b`)).toBe(false);
  });
});

/** Every stored text field of the shared schemas, with a valid body and its label in the message. */
const FIELDS: [string, string, z.ZodMiniType, Record<string, unknown>, string][] = [
  ['articles', 'title', CreateArticleSchema(), { title: 'T', topic: 'To' }, 'Title'],
  ['articles', 'topic', CreateArticleSchema(), { title: 'T', topic: 'To' }, 'Topic'],
  ['articles', 'keyword', CreateArticleSchema(), { title: 'T', topic: 'To' }, 'Keyword'],
  ['articles', 'details', CreateArticleSchema(), { title: 'T', topic: 'To' }, 'Details'],
  ['articles', 'imageDescription', CreateArticleSchema(), { title: 'T', topic: 'To' }, 'Image description'],
  ['blog', 'content', BlogContentSchema(), { content: 'x' }, 'Blog content'],
  ['linkedin', 'content', LinkedInContentSchema(), { content: 'x' }, 'LinkedIn content'],
  [
    'gpt edit',
    'editRequest',
    GptEditSchema(),
    { articleId: 'a1', contentType: 'blog', editRequest: 'x' },
    'The edit request',
  ],
  ['image', 'description', ImageRequestSchema(), { description: 'x' }, 'The image description'],
  [
    'register',
    'name',
    RegisterSchema(),
    { name: 'A', surname: 'B', email: 'a@example.com', password: 'secret1', timezone: 'UTC' },
    'Name',
  ],
  [
    'register',
    'surname',
    RegisterSchema(),
    { name: 'A', surname: 'B', email: 'a@example.com', password: 'secret1', timezone: 'UTC' },
    'Surname',
  ],
  [
    'register',
    'password',
    RegisterSchema(),
    { name: 'A', surname: 'B', email: 'a@example.com', password: 'secret1', timezone: 'UTC' },
    'Password',
  ],
  [
    'change password',
    'newPassword',
    ChangePasswordSchema(),
    { currentPassword: 'old-pass', newPassword: 'secret1' },
    'Password',
  ],
  ['settings', 'value', SaveSettingSchema(), { key: 'k', value: 'v' }, 'The value'],
  ['settings', 'description', SaveSettingSchema(), { key: 'k', value: 'v' }, 'The description'],
  [
    'wordpress',
    'siteUrl',
    WordPressCredentialsSchema(),
    { siteUrl: 'https://a.example', username: 'u', appPassword: 'p' },
    'The site URL',
  ],
  [
    'wordpress',
    'username',
    WordPressCredentialsSchema(),
    { siteUrl: 'https://a.example', username: 'u', appPassword: 'p' },
    'The username',
  ],
  [
    'wordpress',
    'appPassword',
    WordPressCredentialsSchema(),
    { siteUrl: 'https://a.example', username: 'u', appPassword: 'p' },
    'The application password',
  ],
  [
    'wordpress',
    'siteId',
    WordPressCredentialsSchema(),
    { siteUrl: 'https://a.example', username: 'u', appPassword: 'p' },
    'siteId',
  ],
  ['linkedin', 'clientId', LinkedInCredentialsSchema(), { clientId: 'id', clientSecret: 's' }, 'The Client ID'],
  ['linkedin', 'clientSecret', LinkedInCredentialsSchema(), { clientId: 'id', clientSecret: 's' }, 'The Client Secret'],
  ['webhook', 'webhookUrl', WebhookSchema(), { webhookUrl: 'https://hooks.example/x' }, 'The webhook URL'],
  ['email test', 'subject', EmailTestSchema(), { to: 'a@example.com' }, 'The subject'],
  ['email test', 'message', EmailTestSchema(), { to: 'a@example.com' }, 'The message'],
  ['sheets', 'range', SheetsImportSchema(), { spreadsheetId: 's1', range: 'Sheet1!A1:F5' }, 'The range'],
];

describe('stored text fields refuse control and text-direction characters with a message naming the field', () => {
  it.each(FIELDS)('%s %s', (_area, field, schema, valid, label) => {
    expect(schema.safeParse(valid).success).toBe(true);
    for (const [name, ch] of REFUSED) {
      const result = schema.safeParse({ ...valid, [field]: `long enough${ch}text` });
      expect(result.success, `${field} with ${name}`).toBe(false);
      expect(firstIssueMessage(result.error!)).toBe(unsafeCharactersMessage(label));
    }
  });

  it('tab, line breaks and the right-to-left marks stay allowed in content', () => {
    const content = 'Line one\r\n\tindented\nשלום\u200f (1) — مرحبا\u200e!';
    expect(BlogContentSchema().parse({ content }).content).toBe(content);
    expect(LinkedInContentSchema().parse({ content }).content).toBe(content);
    expect(CreateArticleSchema().parse({ title: 'עברית\u200f', topic: 'x', details: 'a\nb' }).details).toBe('a\nb');
  });

  it('the message reads "<Field> contains characters that are not allowed (control or text-direction characters)"', () => {
    expect(unsafeCharactersMessage('Title')).toBe(
      'Title contains characters that are not allowed (control or text-direction characters)',
    );
  });
});

describe('passwords of existing accounts are left as they are', () => {
  it('login and the current password accept any characters (only new passwords are checked)', () => {
    expect(LoginSchema().safeParse({ email: 'a@example.com', password: 'old\u0007pass\u202e' }).success).toBe(true);
    expect(
      ChangePasswordSchema().safeParse({ currentPassword: 'old\u0007pass', newPassword: 'new-pass-1' }).success,
    ).toBe(true);
  });
});
