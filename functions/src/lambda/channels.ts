import { handlers } from '../http/channels.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
