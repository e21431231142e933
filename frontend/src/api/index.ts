export * from './client';
export { authApi } from './auth';
export { adminApi } from './admin';
export { articlesApi } from './articles';
export { imagesApi, imagePreviewCandidates } from './images';
export { settingsApi } from './settings';
export { publishingApi } from './publishing';
