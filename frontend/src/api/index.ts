export * from './client';
export { authApi } from './auth';
export { adminApi } from './admin';
