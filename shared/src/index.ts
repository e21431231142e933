export * from './limits.js';
export * from './messages.js';
export * from './auth.js';
