import { handlers } from '../http/articles.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
