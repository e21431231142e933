import { approvalLinks } from '../wiring/approvals.js';
import { defineHandlers } from './handlers.js';
import { json } from './response.js';

/** Public: the signed, expiring token in the e-mailed link is the authorization. */
export const handlers = defineHandlers('approvals', {
  'approvals.preview': async ({ body }) => json(200, await approvalLinks().previewApproval(body.token)),
  'approvals.confirm': async ({ body }) => json(200, await approvalLinks().confirmApproval(body.token)),
});
