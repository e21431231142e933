import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS, contentSecurityPolicy } from '../../functions/src/http/security-headers.js';
import { testApp } from './helpers.js';

const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';

/**
 * The CloudFront response-headers policy sends the values of functions/src/http/security-headers.ts,
 * the definition the local server (functions/src/local/server.ts) sends too.
 */
describe('CloudFront security headers', () => {
  let config: Record<string, any>;
  let stack: ReturnType<typeof testApp>['stack'];
  beforeAll(() => {
    ({ stack } = testApp());
    const policies = Object.values(Template.fromStack(stack).findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policies).toHaveLength(1);
    config = (policies[0] as { Properties: Record<string, any> }).Properties.ResponseHeadersPolicyConfig;
  });

  it('are the shared definition: CSP (frame-ancestors), X-Frame-Options, Referrer-Policy, nosniff', () => {
    const security = config.SecurityHeadersConfig;
    expect(security.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy: stack.resolve(contentSecurityPolicy(`https://*.s3.${stack.region}.${stack.urlSuffix}`)),
      Override: true,
    });
    expect(contentSecurityPolicy()).toContain("frame-ancestors 'none'");
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

  it("let the SPA post uploads to the images bucket's regional endpoint only, when the site has its own address", () => {
    const custom = testApp({ context: { domainName: 'publish.example.com', certificateArn: CERTIFICATE } }).stack;
    const [policy] = Object.values(Template.fromStack(custom).findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    const csp = (policy as { Properties: Record<string, any> }).Properties.ResponseHeadersPolicyConfig
      .SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
    expect(csp).toEqual(
      custom.resolve(contentSecurityPolicy(`https://${custom.imagesBucket.bucketRegionalDomainName}`)),
    );
    expect(JSON.stringify(csp)).toContain('RegionalDomainName');
  });

  it("without one (the distribution's address) any S3 host of the region: the bucket's CORS rule names the distribution, so the CSP cannot name the bucket (a cycle)", () => {
    const csp = config.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
    expect(JSON.stringify(csp)).toContain("connect-src 'self' https://*.s3.");
    expect(JSON.stringify(csp)).toContain('AWS::Region');
  });
});
