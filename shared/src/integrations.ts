import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { EmailSchema } from './auth.js';
import { safeCharacters } from './text.js';

/** The LinkedIn panel's opt-in for page posting; the publish error names it. */
const LINKEDIN_PAGES_LABEL = 'Also post to LinkedIn Pages I administer';

export const IntegrationMessages = {
  allFieldsRequired: 'All fields are required',
  obfuscated:
    'This value looks masked (it contains •). Type the real value, or leave the field blank to keep the saved one.',
  /** The webhook's saved URL comes back masked (it is a credential); sent back unchanged it is refused. */
  webhookMasked:
    'This is the saved address, hidden because it works like a password. Type the whole new URL to replace it, or empty the field to turn the webhook off.',
  siteUrlLocked: 'Site URL cannot be changed',
  /** A blank password means the saved one, which only ever goes to the site it was saved for. */
  wordpressPasswordForSite: 'Enter the application password for this site',
  cannotSaveInvalid: 'Cannot save invalid credentials',
  wordpressSaved: 'WordPress credentials saved',
  linkedinSaveFirst: 'Please save LinkedIn credentials first',
  linkedinClientIdRequired: 'Client ID is required',
  linkedinClientSecretRequired: 'Client Secret is required',
  /** A blank secret means the saved one, which only ever goes with the Client ID it was saved for. */
  linkedinSecretForClient: 'Enter the Client Secret for this Client ID',
  linkedinSaved: 'LinkedIn credentials saved',
  linkedinConnected: 'LinkedIn authentication successful!',
  linkedinPagesLabel: LINKEDIN_PAGES_LABEL,
  linkedinPageAccessNeeded: `Posting as a LinkedIn Page needs page access: in Settings → LinkedIn, tick '${LINKEDIN_PAGES_LABEL}' and authenticate again (your LinkedIn app needs the Community Management API product).`,
  notificationEmailRequired: 'Please enter a notification email address',
  gmailCredentialsRequired: 'Please fill in Gmail API credentials',
  /** Saving another Gmail Client ID removes the saved secret and sign-in (they belong to the previous client). */
  gmailSecretForClient: 'Enter the Client Secret of this Client ID: the saved secret belongs to the previous one.',
  gmailNotConfigured: 'Gmail API is not authenticated yet: save the credentials and complete the OAuth flow first.',
  testEmailSent: 'Test email sent successfully! Check your inbox.',
  emailSaved: 'Email settings saved successfully!',
  emailCleared: 'Gmail API settings cleared successfully!',
  webhookSaved: 'Automation webhook saved',
} as const;

/** docs/product.md (Settings, Gmail): the fixed subject of the configuration test e-mail. */
export const TEST_EMAIL_SUBJECT = 'Content Publisher: Gmail API configuration test';

const BULLET = /[\u2022\u25CF\u2219\u00B7]/;
const noBullets = (s: string) => !BULLET.test(s);

export const SiteUrlSchema = lazySchema(() =>
  z
    .string({ error: IntegrationMessages.allFieldsRequired })
    .check(
      z.trim(),
      z.minLength(1, IntegrationMessages.allFieldsRequired),
      z.maxLength(300, 'The site URL is too long'),
      z.refine(noBullets, IntegrationMessages.obfuscated),
      safeCharacters('The site URL'),
    ),
);

export const WordPressTestSchema = lazySchema(() =>
  z.strictObject({
    siteUrl: SiteUrlSchema(),
    username: z
      .string({ error: IntegrationMessages.allFieldsRequired })
      .check(
        z.trim(),
        z.minLength(1, IntegrationMessages.allFieldsRequired),
        z.maxLength(200, 'The username must be at most 200 characters'),
        z.refine(noBullets, IntegrationMessages.obfuscated),
        safeCharacters('The username'),
      ),
    appPassword: z._default(
      z.optional(
        z
          .string({ error: IntegrationMessages.allFieldsRequired })
          .check(
            z.maxLength(200, 'The application password must be at most 200 characters'),
            z.refine(noBullets, IntegrationMessages.obfuscated),
            safeCharacters('The application password'),
          ),
      ),
      '',
    ),
  }),
);

export const WordPressCredentialsSchema = lazySchema(() =>
  z.extend(WordPressTestSchema(), {
    siteId: z.optional(
      z
        .string({ error: 'siteId must be text' })
        .check(z.maxLength(100, 'siteId must be at most 100 characters'), safeCharacters('siteId')),
    ),
    skipPasswordUpdate: z.optional(z.boolean({ error: 'skipPasswordUpdate must be true or false' })),
  }),
);
export type WordPressCredentialsInput = z.input<ReturnType<typeof WordPressCredentialsSchema>>;

export const LinkedInCredentialsSchema = lazySchema(() =>
  z.strictObject({
    clientId: z
      .string({ error: IntegrationMessages.linkedinClientIdRequired })
      .check(
        z.trim(),
        z.minLength(1, IntegrationMessages.linkedinClientIdRequired),
        z.maxLength(200, 'The Client ID must be at most 200 characters'),
        z.refine(noBullets, IntegrationMessages.obfuscated),
        safeCharacters('The Client ID'),
      ),
    clientSecret: z._default(
      z.optional(
        z
          .string({ error: 'The Client Secret must be text' })
          .check(
            z.trim(),
            z.maxLength(500, 'The Client Secret must be at most 500 characters'),
            z.refine(noBullets, IntegrationMessages.obfuscated),
            safeCharacters('The Client Secret'),
          ),
      ),
      '',
    ),
  }),
);
export type LinkedInCredentialsInput = z.input<ReturnType<typeof LinkedInCredentialsSchema>>;

export const RedirectQuerySchema = lazySchema(() =>
  z.strictObject({
    redirectUri: z.optional(z.string().check(z.maxLength(500, 'redirectUri must be at most 500 characters'))),
  }),
);

/** GET /api/linkedin/auth-url: `pages=true` asks for the organization scopes too (LinkedIn Pages the member administers). */
export const LinkedInAuthQuerySchema = lazySchema(() =>
  z.extend(RedirectQuerySchema(), {
    pages: z.optional(z.enum(['true', 'false'], { error: 'pages must be true or false' })),
  }),
);
export type LinkedInAuthQuery = z.infer<ReturnType<typeof LinkedInAuthQuerySchema>>;

/** A parameter of the provider's redirect: anything longer than any real one is not an answer of the provider. */
const callbackParam = (name: string, max: number) =>
  z.optional(
    z.string().check(z.maxLength(max, `The sign-in answer is not valid: ${name} is longer than ${max} characters`)),
  );

/** Not strict: providers may add parameters of their own (e.g. Google's authuser, prompt). */
export const OAuthCallbackQuerySchema = lazySchema(() =>
  z.object({
    code: callbackParam('code', 2000),
    state: callbackParam('state', 4000),
    error: callbackParam('error', 200),
    error_description: callbackParam('error_description', 2000),
    scope: callbackParam('scope', 2000),
  }),
);

export const WebhookSchema = lazySchema(() =>
  z.strictObject({
    webhookUrl: z.string({ error: 'Webhook URL is required' }).check(
      z.trim(),
      z.maxLength(1000, 'The webhook URL must be at most 1000 characters'),
      safeCharacters('The webhook URL'),
      z.refine(noBullets, IntegrationMessages.webhookMasked),
      z.refine(
        (v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v),
        'Enter an http(s) URL, or leave it empty to turn the webhook off',
      ),
    ),
  }),
);

export const EmailTestSchema = lazySchema(() =>
  z.strictObject({
    to: EmailSchema(),
    subject: z.optional(
      z
        .string({ error: 'subject must be text' })
        .check(z.maxLength(300, 'The subject must be at most 300 characters'), safeCharacters('The subject')),
    ),
    message: z.optional(
      z
        .string({ error: 'message must be text' })
        .check(z.maxLength(10_000, 'The message must be at most 10000 characters'), safeCharacters('The message')),
    ),
    method: z._default(z.optional(z.literal('gmail', { error: 'method must be gmail' })), 'gmail'),
  }),
);

/** Settings that must hold an e-mail address when saved through POST /api/settings. */
export const EMAIL_SETTING_KEYS = new Set(['notification_email']);

export interface WordPressStatus {
  success: true;
  configured: boolean;
  siteUrl: string | null;
  username: string | null;
  hasAppPassword: boolean;
  updatedAt: string | null;
}

export interface LinkedInStatus {
  success: true;
  clientId: string | null;
  hasClientSecret: boolean;
  connected: boolean;
  memberName: string | null;
  expiresAt: string | null;
  /** True during the last 7 days before the token expires. */
  expiringSoon: boolean;
  expired: boolean;
  /**
   * Whether the stored grant includes the organization scopes (posting as a LinkedIn Page):
   * null when not known (a connection made before the granted scopes were kept), false when not connected;
   * absent from servers older than this field.
   */
  canPostAsPage?: boolean | null;
  /**
   * The name of the LinkedIn Page company mode posts as, looked up when connecting with page access: null when
   * not known (no page access, LinkedIn did not say, or not connected); absent from servers older than this field.
   */
  pageName?: string | null;
}

export interface EmailStatus {
  success: true;
  notificationEmail: string;
  gmailClientId: string;
  gmailClientSecret: string;
  gmailRefreshToken: string;
  authenticated: boolean;
}

export const PostingModeMessages = {
  articleIdRequired: 'Article ID is required',
  modeRequired: 'Valid mode (personal or company) is required',
  personal: 'LinkedIn posting mode set to Personal Profile',
  company: 'LinkedIn posting mode set to Business Page',
} as const;

export const PostingModeSchema = lazySchema(() =>
  z.strictObject({
    mode: z.enum(['personal', 'company'], { error: PostingModeMessages.modeRequired }),
  }),
);

export const PublishParamsSchema = lazySchema(() =>
  z.strictObject({
    id: z
      .string({ error: PostingModeMessages.articleIdRequired })
      .check(
        z.minLength(1, PostingModeMessages.articleIdRequired),
        z.maxLength(64, 'Article ID is not valid'),
        z.regex(/^[A-Za-z0-9_-]+$/, 'Article ID is not valid'),
      ),
  }),
);
