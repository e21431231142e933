import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { deps } from '../wiring/deps.js';
import { onResetDeps } from '../wiring/lazy.js';
import { equalInConstantTime } from '../domain/constant-time.js';
import { forbidden, type ApiResponse } from '../http/response.js';
import { markViaCloudFront, ORIGIN_SECRET_HEADER } from '../http/client-address.js';

export { ORIGIN_SECRET_HEADER };

export const ORIGIN_NOT_VERIFIED = 'Requests to the API must go through the site';

/** After a mismatch, the secret is read again at most this often (a rotated value is picked up, a flood is not amplified). */
const REFRESH_AFTER_MS = 60_000;

interface Cached {
  value: Promise<string>;
  readAt: number;
}

let client: SecretsManagerClient | undefined;
let cached: Cached | undefined;
onResetDeps(() => {
  cached = undefined;
});

function read(arn: string, region: string): Cached {
  client ??= new SecretsManagerClient({ region });
  const entry: Cached = {
    readAt: Date.now(),
    value: client.send(new GetSecretValueCommand({ SecretId: arn })).then((out) => {
      if (!out.SecretString) throw new Error('The origin secret is empty');
      return out.SecretString;
    }),
  };
  entry.value.catch(() => {
    if (cached === entry) cached = undefined; // the next request retries a transient failure
  });
  return entry;
}

/**
 * In AWS (ORIGIN_SECRET_ARN set) the API answers only requests that carry CloudFront's origin
 * secret header, so the execute-api endpoint cannot be used to get around the web ACL and the
 * distribution; a request without it, or with another value, gets 403. The secret is read once per
 * container and again after a mismatch (at most once a minute), so a rotated value is picked up.
 * Locally (unset) there is nothing to check.
 */
export const originSecretCheck = <C extends Context>(): middy.MiddlewareObj<
  APIGatewayProxyEventV2,
  ApiResponse,
  Error,
  C
> => ({
  before: async (request) => {
    const { originSecretArn, region } = deps().config;
    if (!originSecretArn) return;
    const { event } = request;
    const given = event.headers?.[ORIGIN_SECRET_HEADER];
    if (!given) throw forbidden(ORIGIN_NOT_VERIFIED, 'origin_not_verified');
    let entry = (cached ??= read(originSecretArn, region));
    let matches = equalInConstantTime(given, await entry.value);
    if (!matches && Date.now() - entry.readAt >= REFRESH_AFTER_MS) {
      entry = cached = read(originSecretArn, region);
      matches = equalInConstantTime(given, await entry.value);
    }
    if (!matches) throw forbidden(ORIGIN_NOT_VERIFIED, 'origin_not_verified');
    // Handlers never need it; dropping it keeps it out of anything that echoes or logs headers.
    delete event.headers[ORIGIN_SECRET_HEADER];
    markViaCloudFront(event);
  },
});
