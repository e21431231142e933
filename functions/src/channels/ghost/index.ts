/** The Ghost channel (docs/integrations.md, Ghost): its settings, its token and its Admin API client. */
export * from './credentials.js';
export * from './token.js';
export * from './client.js';
