import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * The header CloudFront adds with the viewer's address and source port (forwarded to the API by
 * the /api/* behaviour's origin request policy, infra/lib/site.ts). API Gateway lowercases names.
 */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/**
 * The header CloudFront adds to every API request with the origin secret (the stack sets it on the
 * /api/* origin, functions/src/middleware/origin-secret.ts checks it). Kept here, in a module
 * without dependencies, so that infra/ can import it.
 */
export const ORIGIN_SECRET_HEADER = 'x-origin-verify';

/** Events whose origin secret header the middleware has checked: they came through our CloudFront. */
const viaCloudFront = new WeakSet<APIGatewayProxyEventV2>();

/** Called by the origin check (functions/src/middleware/origin-secret.ts) once the header matched. */
export function markViaCloudFront(event: APIGatewayProxyEventV2): void {
  viaCloudFront.add(event);
}

/**
 * The IP address in a CloudFront-Viewer-Address value: `198.51.100.10:46532` for IPv4, the IPv6
 * address followed by `:port` (`2001:db8::1:46532`), or the bracketed form (`[2001:db8::1]:46532`).
 * Undefined for anything else.
 */
export function viewerIp(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let ip: string;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0 || !/^:\d{1,5}$/.test(text.slice(end + 1))) return undefined;
    ip = text.slice(1, end);
  } else {
    const colon = text.lastIndexOf(':');
    if (colon < 0 || !/^\d{1,5}$/.test(text.slice(colon + 1))) return undefined;
    ip = text.slice(0, colon);
  }
  return isIP(ip) ? ip : undefined;
}

/**
 * The address of the client that made the request (sign-in throttling, the audit trail). Behind
 * CloudFront the API sees CloudFront's address as sourceIp, so a request whose origin secret was
 * verified answers the viewer address CloudFront forwards; any other request (the local server, or
 * AWS without an origin secret) answers sourceIp, since there the header could be the client's own.
 */
export function clientAddress(event: APIGatewayProxyEventV2): string {
  if (viaCloudFront.has(event)) {
    const ip = viewerIp(event.headers?.[VIEWER_ADDRESS_HEADER]);
    if (ip) return ip;
  }
  return event.requestContext.http.sourceIp;
}
