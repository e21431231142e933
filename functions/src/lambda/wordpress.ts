import { handlers } from '../http/wordpress.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
