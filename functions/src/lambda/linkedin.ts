import { handlers } from '../http/linkedin.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
