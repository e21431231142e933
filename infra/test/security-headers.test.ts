import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../functions/src/http/security-headers.js';
import { testApp } from './helpers.js';

/**
 * The CloudFront response-headers policy sends the values of functions/src/http/security-headers.ts,
 * the definition the local server (functions/src/local/server.ts) sends too.
 */
describe('CloudFront security headers', () => {
  let config: Record<string, any>;
  beforeAll(() => {
    const { stack } = testApp();
    const policies = Object.values(Template.fromStack(stack).findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policies).toHaveLength(1);
    config = (policies[0] as { Properties: Record<string, any> }).Properties.ResponseHeadersPolicyConfig;
  });

  it('are the shared definition: CSP (frame-ancestors), X-Frame-Options, Referrer-Policy, nosniff', () => {
    const security = config.SecurityHeadersConfig;
    expect(security.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy: SECURITY_HEADERS.contentSecurityPolicy,
      Override: true,
    });
    expect(SECURITY_HEADERS.contentSecurityPolicy).toContain("frame-ancestors 'none'");
    expect(security.FrameOptions).toEqual({ FrameOption: SECURITY_HEADERS.frameOptions, Override: true });
    expect(security.ReferrerPolicy).toEqual({ ReferrerPolicy: SECURITY_HEADERS.referrerPolicy, Override: true });
    // CloudFront's X-Content-Type-Options is always nosniff, the shared value.
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(SECURITY_HEADERS.contentTypeOptions).toBe('nosniff');
  });

  it('are the shared definition: HSTS and Permissions-Policy', () => {
    expect(config.SecurityHeadersConfig.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: SECURITY_HEADERS.strictTransportSecurity.maxAgeSeconds,
      IncludeSubdomains: SECURITY_HEADERS.strictTransportSecurity.includeSubdomains,
      Override: true,
    });
    expect(config.CustomHeadersConfig.Items).toEqual([
      { Header: 'Permissions-Policy', Value: SECURITY_HEADERS.permissionsPolicy, Override: true },
    ]);
  });
});
