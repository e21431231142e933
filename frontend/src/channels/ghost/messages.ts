/** Texts of the Ghost channel that only the browser shows (docs/product.md, Texts). */
export const GhostPanelMessages = {
  title: 'Ghost Integration',
  description:
    'Publish the blog version to your Ghost site, beside or instead of WordPress. In Ghost Admin, open Settings → Integrations → Add custom integration, then copy its Admin API URL and Admin API key.',
  loadFailed: 'Failed to load the Ghost connection',
  connectionFailed: (error: string) => `Connection failed: ${error}`,
  saveFailed: (message: string) => `Failed to save the connection: ${message}`,
  disconnectFailed: (message: string) => `Failed to disconnect Ghost: ${message}`,
  disconnected: 'Ghost disconnected.',
  keyHint: 'The saved key is never shown. Leave it blank to test the saved connection; Save needs the key again.',
} as const;
