import { handlers } from '../http/admin.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
