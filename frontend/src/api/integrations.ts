import type { EmailStatus, LinkedInStatus, WordPressStatus } from '@app/shared';
import { api } from './client';

/** WordPress: a failed check is a 200 answer with `success: false` and the reason. */
export interface WordPressCheckAnswer {
  success: boolean;
  user?: { name?: string };
  message?: string;
  error?: string;
  code?: string;
  siteUrl?: string;
}

export interface WordPressCredentialsBody {
  siteUrl: string;
  username: string;
  appPassword: string;
  skipPasswordUpdate?: boolean;
}

export interface LinkedInCredentialsBody {
  clientId: string;
  /** '' keeps the saved secret (same client id only). */
  clientSecret: string;
}

export interface ActionAnswer {
  success: boolean;
  message?: string;
  error?: string;
}

export interface AuthUrlAnswer {
  success: boolean;
  authUrl?: string;
}

export interface WebhookAnswer {
  success: boolean;
  webhookUrl: string;
  hasSigningSecret?: boolean;
  /** Only when the secret is first created: shown once. */
  signingSecret?: string;
  message?: string;
}

export interface TestEmailBody {
  to: string;
  subject: string;
  message: string;
  method: 'gmail';
}

/** The URIs the providers redirect to; they must be registered with the provider exactly. */
export const linkedInRedirectUri = () => `${window.location.origin}/api/linkedin/callback`;
export const gmailRedirectUri = () => `${window.location.origin}/api/email/oauth/callback`;

export const wordpressApi = {
  status: () => api.get<WordPressStatus>('/wordpress/credentials'),
  test: (body: WordPressCredentialsBody) => api.post<WordPressCheckAnswer>('/wordpress/test-connection', body),
  save: (body: WordPressCredentialsBody) => api.post<WordPressCheckAnswer>('/wordpress/credentials', body),
};

export const linkedinApi = {
  status: () => api.get<LinkedInStatus>('/linkedin/status'),
  saveCredentials: (body: LinkedInCredentialsBody) => api.post<ActionAnswer>('/linkedin/credentials', body),
  test: (body: LinkedInCredentialsBody) => api.post<ActionAnswer>('/linkedin/test-connection', body),
  /** `pages` asks for page access too (the Community Management API scopes). */
  authUrl: (redirectUri = linkedInRedirectUri(), pages = false) =>
    api.get<AuthUrlAnswer>(`/linkedin/auth-url?redirectUri=${encodeURIComponent(redirectUri)}${pages ? '&pages=true' : ''}`),
  webhook: () => api.get<WebhookAnswer>('/linkedin/zapier-webhook'),
  setWebhook: (webhookUrl: string) => api.post<WebhookAnswer>('/linkedin/zapier-webhook', { webhookUrl }),
};

export const emailApi = {
  status: () => api.get<EmailStatus>('/email/settings'),
  authUrl: () => api.get<AuthUrlAnswer>('/email/oauth/auth'),
  sendTest: (body: TestEmailBody) => api.post<ActionAnswer>('/email/test', body),
};
