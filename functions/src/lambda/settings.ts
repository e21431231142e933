import { handlers } from '../http/settings.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
