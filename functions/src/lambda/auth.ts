import { handlers } from '../http/auth.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
