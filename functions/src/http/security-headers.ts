/**
 * The browser security headers of every answer, defined once: the CloudFront response-headers
 * policy (infra/lib/site.ts) adds them in AWS and the local server (functions/src/local/server.ts)
 * sends the same values, so `npm start` and the browser journeys run under the deployed policy.
 */

/** Same-origin scripts and API calls; images may be remote (blog, LinkedIn). No inline scripts. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS = {
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
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
 * does with override). Strict-Transport-Security is CloudFront's alone: the local server speaks
 * plain HTTP, where browsers ignore it.
 */
export const LOCAL_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': SECURITY_HEADERS.contentSecurityPolicy,
  'x-frame-options': SECURITY_HEADERS.frameOptions,
  'referrer-policy': SECURITY_HEADERS.referrerPolicy,
  'x-content-type-options': SECURITY_HEADERS.contentTypeOptions,
  'permissions-policy': SECURITY_HEADERS.permissionsPolicy,
};
