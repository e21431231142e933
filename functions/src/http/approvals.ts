import type { ApiRequest, RouteHandler } from '../middleware/api.js';
import { approvalLinks } from '../wiring/approvals.js';
import { json } from './response.js';

/** Public: the signed, expiring token in the e-mailed link is the authorization. */
async function preview({ body }: ApiRequest<{ token: string }>) {
  return json(200, await approvalLinks().previewApproval(body.token));
}

async function confirm({ body }: ApiRequest<{ token: string }>) {
  return json(200, await approvalLinks().confirmApproval(body.token));
}

export const handlers: Record<string, RouteHandler> = { 'approvals.preview': preview, 'approvals.confirm': confirm };
