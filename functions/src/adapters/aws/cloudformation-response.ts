import type { BackfillRequest, BackfillResponse } from '../../jobs/table-backfills.js';

/** How long the answer's upload may take (a presigned S3 URL). */
const RESPONSE_TIMEOUT_MS = 15_000;

/**
 * Answers a CloudFormation custom resource request: a PUT of the answer to the request's presigned
 * ResponseURL, which CloudFormation waits on. The URL is a credential of the request: never logged.
 */
export async function sendCloudFormationResponse(
  request: Pick<BackfillRequest, 'ResponseURL' | 'StackId' | 'RequestId' | 'LogicalResourceId'>,
  response: BackfillResponse,
): Promise<void> {
  const body = JSON.stringify({
    ...response,
    StackId: request.StackId,
    RequestId: request.RequestId,
    LogicalResourceId: request.LogicalResourceId,
  });
  const res = await fetch(request.ResponseURL, {
    method: 'PUT',
    // The URL is signed without a content type: S3 refuses the upload if one is sent.
    headers: { 'content-type': '' },
    body,
    signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`CloudFormation's response URL refused the answer (HTTP ${res.status})`);
}
