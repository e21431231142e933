/** Texts of the Bluesky channel that only the browser shows (docs/product.md, Texts). */
export const BlueskyPanelMessages = {
  title: 'Bluesky Integration',
  description:
    'Post each article’s Bluesky version (up to 300 characters, with the article’s image) to your Bluesky account.',
  appPasswordHelp:
    'Use an app password, never your account password: in Bluesky open Settings → Privacy and security → App passwords, choose Add App Password, then copy the password it shows (like abcd-efgh-ijkl-mnop).',
  loadFailed: 'Failed to load the Bluesky connection',
  connectionFailed: (error: string) => `Connection failed: ${error}`,
  saveFailed: (message: string) => `Failed to save the connection: ${message}`,
  disconnectFailed: (message: string) => `Failed to disconnect Bluesky: ${message}`,
  disconnected: 'Bluesky disconnected.',
  handleRequired: 'Enter your Bluesky handle, for example alice.bsky.social.',
  appPasswordRequired: 'Enter an app password from Bluesky (Settings → Privacy and security → App passwords).',
  passwordHint:
    'The saved app password is never shown. Leave it blank to test the saved connection; Save needs it again.',
} as const;
