import { handlers } from '../http/email.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
