import { handlers } from '../http/workspaces.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
