import type { OAuth2Client, OAuth2ClientOptions } from 'google-auth-library';

let library: Promise<typeof import('google-auth-library')> | undefined;

/**
 * A google-auth-library OAuth2Client. The library (with its HTTP stack) is loaded on the first
 * Google call, not at cold start: most calls of the functions that bundle it never talk to Google.
 */
export async function createOAuth2Client(options: OAuth2ClientOptions): Promise<OAuth2Client> {
  const { OAuth2Client } = await (library ??= import('google-auth-library'));
  return new OAuth2Client(options);
}
