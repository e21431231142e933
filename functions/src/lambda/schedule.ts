import { handlers } from '../http/schedule.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
