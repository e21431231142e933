import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORWARDED_HOST_FUNCTION, SPA_REWRITE_FUNCTION, contentSecurityPolicy } from '../lib/site.js';
import { builtSpaDir, logicalId, only, synthesizeDefaultStack, testApp, type Resource } from './helpers.js';

const { stack, template } = synthesizeDefaultStack();

describe('site bucket and CloudFront', () => {
  const distribution = () =>
    only(template.findResources('AWS::CloudFront::Distribution') as Record<string, Resource>)[1];
  const config = () => distribution().Properties.DistributionConfig as Record<string, any>;
  const siteBucketId = () => logicalId(stack, stack.site.bucket);
  const functionCode = (id: string) =>
    (template.findResources('AWS::CloudFront::Function')[id] as Resource).Properties.FunctionCode;
  const functionIdOf = (association: { FunctionARN: { 'Fn::GetAtt': [string, string] } }) =>
    association.FunctionARN['Fn::GetAtt'][0];

  it('keeps the SPA in a private, encrypted bucket that requires TLS', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[siteBucketId()] as Resource;
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(
      bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault,
    ).toEqual({
      SSEAlgorithm: 'AES256',
    });
    expect(bucket.Properties.LoggingConfiguration).toBeDefined();
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: siteBucketId() },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('reads the bucket through origin access control, granted to this distribution only', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: {
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      },
    });
    const s3Origin = (config().Origins as any[]).find((o) => o.S3OriginConfig);
    expect(s3Origin.DomainName).toEqual({ 'Fn::GetAtt': [siteBucketId(), 'RegionalDomainName'] });
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Id'] });
    expect(s3Origin.S3OriginConfig.OriginAccessIdentity).toBe('');
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: siteBucketId() },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('serves index.html at the root and rewrites client routes with a function, not with error responses', () => {
    expect(config().DefaultRootObject).toBe('index.html');
    // Distribution-wide error responses would turn the API's JSON 403/404 answers into index.html.
    expect(config().CustomErrorResponses).toBeUndefined();
    const behaviour = config().DefaultCacheBehavior;
    expect(behaviour.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(behaviour.FunctionAssociations).toHaveLength(1);
    expect(behaviour.FunctionAssociations[0].EventType).toBe('viewer-request');
    expect(functionCode(functionIdOf(behaviour.FunctionAssociations[0]))).toBe(SPA_REWRITE_FUNCTION);
  });

  it('sends /api/* to the HTTP API uncached, with all methods, cookies, query strings and headers', () => {
    const behaviours = config().CacheBehaviors as any[];
    expect(behaviours).toHaveLength(1);
    const api = behaviours[0];
    expect(api).toMatchObject({
      PathPattern: '/api/*',
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    });
    expect([...api.AllowedMethods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    const origin = (config().Origins as any[]).find((o) => o.Id === api.TargetOriginId);
    expect(origin.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(JSON.stringify(origin.DomainName)).toContain(`"Ref":"${logicalId(stack, stack.http.api)}"`);
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.');
  });

  it('passes the viewer host to the API as x-forwarded-host', () => {
    const api = (config().CacheBehaviors as any[])[0];
    expect(api.FunctionAssociations).toHaveLength(1);
    expect(api.FunctionAssociations[0].EventType).toBe('viewer-request');
    expect(functionCode(functionIdOf(api.FunctionAssociations[0]))).toBe(FORWARDED_HOST_FUNCTION);
    template.allResourcesProperties('AWS::CloudFront::Function', {
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
  });

  it('adds security headers to every answer', () => {
    const policyId = config().DefaultCacheBehavior.ResponseHeadersPolicyId as { Ref: string };
    expect((config().CacheBehaviors as any[])[0].ResponseHeadersPolicyId).toEqual(policyId);
    const policy = template.findResources('AWS::CloudFront::ResponseHeadersPolicy')[policyId.Ref] as Resource;
    const security = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(security.StrictTransportSecurity).toMatchObject({ IncludeSubdomains: true, Override: true });
    expect(security.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(security.ReferrerPolicy.ReferrerPolicy).toBe('strict-origin-when-cross-origin');
    // Uploads go to the images bucket's S3 endpoint (infra/test/security-headers.test.ts has the detail).
    expect(security.ContentSecurityPolicy.ContentSecurityPolicy).toEqual(
      stack.resolve(contentSecurityPolicy(`https://*.s3.${stack.region}.${stack.urlSuffix}`)),
    );
  });

  it('logs viewer requests to the logs bucket', () => {
    expect(config().Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [logicalId(stack, stack.site.logsBucket), 'RegionalDomainName'] },
      Prefix: 'cloudfront/',
    });
  });

  it("uses the default certificate unless the context gives one, and the stack's own web ACL (infra/test/security.test.ts)", () => {
    expect(config().Aliases).toBeUndefined();
    expect(config().WebACLId).toEqual({
      'Fn::GetAtt': [stack.resolve(stack.getLogicalId(stack.webAcl!.webAcl)), 'Arn'],
    });
  });
});

describe('CloudFront function code', () => {
  type Request = { uri: string; headers: Record<string, { value: string }> };
  const load = (code: string) => new Function(`${code}\nreturn handler;`)() as (event: { request: Request }) => Request;
  const spa = load(SPA_REWRITE_FUNCTION);
  const host = load(FORWARDED_HOST_FUNCTION);
  const request = (uri: string, headers: Record<string, { value: string }> = {}): { request: Request } => ({
    request: { uri, headers },
  });

  it.each(['/', '/dashboard', '/articles/123', '/articles/123/edit', '/settings/'])('SPA: %s → /index.html', (uri) => {
    expect(spa(request(uri)).uri).toBe('/index.html');
  });

  it.each(['/index.html', '/assets/index-abc123.js', '/assets/style.css', '/favicon.svg', '/robots.txt'])(
    'SPA: file %s is left as it is',
    (uri) => {
      expect(spa(request(uri)).uri).toBe(uri);
    },
  );

  it('API: copies Host into x-forwarded-host, replacing a value sent by the viewer', () => {
    const out = host(
      request('/api/auth/me', {
        host: { value: 'd111.cloudfront.net' },
        'x-forwarded-host': { value: 'evil.example' },
      }),
    );
    expect(out.headers['x-forwarded-host']).toEqual({ value: 'd111.cloudfront.net' });
    expect(out.uri).toBe('/api/auth/me');
  });

  it('API: drops a viewer x-forwarded-host when there is no Host', () => {
    const out = host(request('/api/auth/me', { 'x-forwarded-host': { value: 'evil.example' } }));
    expect(out.headers['x-forwarded-host']).toBeUndefined();
  });
});

describe('SPA upload', () => {
  it('is skipped with a warning when the SPA is not built', () => {
    template.resourceCountIs('Custom::CDKBucketDeployment', 0);
    Annotations.fromStack(stack).hasWarning(
      '/ContentPublisher/Site',
      Match.stringLikeRegexp('No built SPA at .*npm run build'),
    );
  });

  it('uploads a built SPA: hashed assets immutable first, then the pages with an invalidation', () => {
    const built = testApp({ stack: { spaDistDir: builtSpaDir() } }).stack;
    const t = Template.fromStack(built);
    const deployments = Object.entries(
      t.findResources('Custom::CDKBucketDeployment') as Record<string, Resource & { DependsOn?: string[] }>,
    );
    expect(deployments).toHaveLength(2);
    const bucketRef = { Ref: logicalId(built, built.site.bucket) };
    const [assetsId, assets] = deployments.find(([, d]) => d.Properties.Include)!;
    const [, pages] = deployments.find(([, d]) => !d.Properties.Include)!;
    expect(assets.Properties).toMatchObject({
      DestinationBucketName: bucketRef,
      Include: ['assets/*'],
      Prune: false,
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    expect(pages.Properties).toMatchObject({
      DestinationBucketName: bucketRef,
      Exclude: ['assets/*'],
      Prune: true,
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionId: { Ref: logicalId(built, built.site.distribution) },
      DistributionPaths: ['/*'],
    });
    expect(pages.DependsOn).toContain(assetsId);
  });

  it("uploads the built files without the build's .br/.gz copies (CloudFront compresses on its own)", () => {
    const { app } = testApp({ stack: { spaDistDir: builtSpaDir() } });
    const assembly = app.synth();
    const staged = readdirSync(assembly.directory, { recursive: true, encoding: 'utf8' });
    expect(staged.some((file) => file.endsWith(join('assets', 'index-abc123.js')))).toBe(true);
    expect(staged.filter((file) => /\.(br|gz)$/.test(file))).toEqual([]);
  });
});
