export * from './limits.js';
export * from './messages.js';
export * from './auth.js';
export * from './articles.js';
export * from './settings.js';
export * from './integrations.js';
export * from './status.js';
export * from './dashboard.js';
