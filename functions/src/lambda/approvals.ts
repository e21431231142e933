import { handlers } from '../http/approvals.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
