import { handlers } from '../http/images.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
