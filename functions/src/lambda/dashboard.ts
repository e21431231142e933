import { handlers } from '../http/dashboard.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
