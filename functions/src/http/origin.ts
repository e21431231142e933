import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Config } from '../config.js';

/**
 * The public origin of the app: PUBLIC_URL when set, else (in AWS, behind CloudFront) the viewer's
 * host that the CloudFront function forwards as x-forwarded-host.
 */
export function publicOrigin(event: APIGatewayProxyEventV2, config: Config): string {
  if (config.publicUrlFromEnv) return new URL(config.publicUrl).origin;
  const host = event.headers['x-forwarded-host'];
  return host ? `https://${host}` : new URL(config.publicUrl).origin;
}
