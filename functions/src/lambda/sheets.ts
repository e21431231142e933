import { handlers } from '../http/sheets.js';
import { createApiHandler } from '../middleware/api.js';

export const handler = createApiHandler(handlers);
