import { approvalLinks } from '../wiring/approvals.js';
import { defineHandlers } from './handlers.js';
import { binary, json } from './response.js';

/** Public: the signed, expiring token in the e-mailed link is the authorization. */
export const handlers = defineHandlers('approvals', {
  'approvals.preview': async ({ body }) => json(200, await approvalLinks().previewApproval(body.token)),
  'approvals.confirm': async ({ body }) => json(200, await approvalLinks().confirmApproval(body.token)),
  'approvals.image': async ({ query }) => {
    const image = await approvalLinks().approvalImage(query.token);
    // The address carries the link's token: kept by this browser only, and the version (t) keeps it fresh.
    return binary(200, image.body, image.contentType, {
      'cache-control': query.t === image.generatedAt ? 'private, max-age=86400' : 'private, no-cache',
    });
  },
});
