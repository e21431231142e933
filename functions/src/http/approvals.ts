import { approvalLinks } from '../wiring/approvals.js';
import { defineHandlers } from './handlers.js';
import { json, redirect } from './response.js';

/** Public: the signed, expiring token in the e-mailed link is the authorization. */
export const handlers = defineHandlers('approvals', {
  'approvals.preview': async ({ body }) => json(200, await approvalLinks().previewApproval(body.token)),
  'approvals.confirm': async ({ body }) => json(200, await approvalLinks().confirmApproval(body.token)),
  // To the store's signed URL of the file, as the owner's image route; kept by this browser for ten minutes
  // (the address carries the link's token, and a new image is asked for with a new t).
  'approvals.image': async ({ query }) =>
    redirect(await approvalLinks().approvalImageLink(query.token), 'private, max-age=600'),
});
