/**
 * The browser security headers of every answer, defined once: the CloudFront response-headers
 * policy (infra/lib/site.ts) adds them in AWS and the local server (functions/src/local/server.ts)
 * sends the same values, so `npm start` and the browser journeys run under the deployed policy.
 */

/**
 * Same-origin scripts and API calls; images may be remote (blog, LinkedIn). No inline scripts.
 * `uploadOrigin` is the images store, where the browser posts an uploaded image itself (a presigned
 * POST) and reads the article's images (presigned GETs the image routes redirect to, domain/images.ts):
 * in AWS the images bucket's regional S3 endpoint (infra/lib/site.ts; https:, which img-src allows
 * anyway), locally the embedded store (http: on the loopback, named here).
 */
export function contentSecurityPolicy(uploadOrigin?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    uploadOrigin ? `img-src 'self' data: blob: https: ${uploadOrigin}` : "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    uploadOrigin ? `connect-src 'self' ${uploadOrigin}` : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The other headers; the Content-Security-Policy is contentSecurityPolicy(uploadOrigin). */
export const SECURITY_HEADERS = {
  /** X-Frame-Options, for browsers that predate frame-ancestors. */
  frameOptions: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
  /** X-Content-Type-Options. */
  contentTypeOptions: 'nosniff',
  permissionsPolicy: 'camera=(), microphone=(), geolocation=()',
  strictTransportSecurity: { maxAgeSeconds: 2 * 365 * 24 * 60 * 60, includeSubdomains: true },
} as const;

/**
 * The headers as the local server sends them, overriding a handler's own (as the CloudFront policy
 * does with override), uploads allowed to `uploadOrigin` (the local store). Strict-Transport-Security
 * is CloudFront's alone: the local server speaks plain HTTP, where browsers ignore it.
 */
export function localSecurityHeaders(uploadOrigin?: string): Readonly<Record<string, string>> {
  return {
    'content-security-policy': contentSecurityPolicy(uploadOrigin),
    'x-frame-options': SECURITY_HEADERS.frameOptions,
    'referrer-policy': SECURITY_HEADERS.referrerPolicy,
    'x-content-type-options': SECURITY_HEADERS.contentTypeOptions,
    'permissions-policy': SECURITY_HEADERS.permissionsPolicy,
  };
}

/**
 * The headers every API answer carries from the function itself (middleware/api.ts), as the middleware that
 * set them before did by default for answers that are not HTML (the API sends none): the CloudFront policy
 * overrides the shared ones in AWS, and the function's own keep a call to the API's origin covered too.
 */
export const API_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Permitted-Cross-Domain-Policies': 'none',
};
