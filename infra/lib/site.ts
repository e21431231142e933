import { Annotations, DefaultStackSynthesizer, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  Function as CloudFrontFunction,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { SECURITY_HEADERS, contentSecurityPolicy } from '../../functions/src/http/security-headers.js';
import { isBuiltSpa } from './paths.js';

const BOOTSTRAP_QUALIFIER_CONTEXT = '@aws-cdk/core:bootstrapQualifier';

/**
 * Viewer-request function of the default (S3) behaviour: a path whose last segment has no file
 * extension is a client-side route of the SPA and is answered with /index.html. Only this
 * behaviour rewrites, so /api/* answers (404s included) reach the browser unchanged.
 */
export const SPA_REWRITE_FUNCTION = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;

/**
 * Viewer-request function of the /api/* behaviour: the origin request policy drops the viewer's
 * Host (API Gateway needs its own), so the public host is passed on as x-forwarded-host; the
 * functions use it for the Origin check. A viewer-sent x-forwarded-host is always replaced.
 */
export const FORWARDED_HOST_FUNCTION = `function handler(event) {
  var request = event.request;
  var host = request.headers.host;
  if (host && host.value) {
    request.headers['x-forwarded-host'] = { value: host.value };
  } else {
    delete request.headers['x-forwarded-host'];
  }
  return request;
}`;

// The headers' values live in functions/src/http/security-headers.ts: the local server sends the same.
export { contentSecurityPolicy } from '../../functions/src/http/security-headers.js';

export interface SiteProps {
  /** Host name of the HTTP API's endpoint, the origin of /api/*. */
  apiDomainName: string;
  /** The built SPA to upload; skipped (with a warning) when it has no index.html. */
  spaDistDir: string;
  /** Optional custom domain: with a certificate (ACM, us-east-1), the distribution enforces TLS 1.2. */
  domainName?: string;
  certificate?: ICertificate;
  /** Optional AWS WAF web ACL (ARN, CLOUDFRONT scope) to attach to the distribution. */
  webAclArn?: string;
  /** Headers CloudFront adds to every request to the API (the origin secret the functions check). */
  apiOriginHeaders?: Record<string, string>;
  /** Where the SPA posts uploaded images (the images bucket's endpoint): the CSP's connect-src allows it. */
  uploadOrigin?: string;
}

/**
 * The public origin: a private S3 bucket with the built SPA behind CloudFront (origin access
 * control), and /api/* passed through to the HTTP API uncached, so SPA and API share one origin
 * and the session cookie is first-party.
 */
export class Site extends Construct {
  readonly bucket: Bucket;
  readonly logsBucket: Bucket;
  readonly distribution: Distribution;
  readonly deployments: BucketDeployment[] = [];

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);

    this.logsBucket = new Bucket(this, 'LogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // CloudFront standard logging writes with ACLs.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.logsBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This bucket is the destination of the access logs of the site bucket and the distribution; ' +
        'logging it into itself would log its own log deliveries without end.',
    });

    this.bucket = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 's3/site/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const spaRewrite = new CloudFrontFunction(this, 'SpaRewriteFunction', {
      comment: 'SPA fallback: extension-less paths get /index.html',
      code: FunctionCode.fromInline(SPA_REWRITE_FUNCTION),
      runtime: FunctionRuntime.JS_2_0,
    });
    const forwardedHost = new CloudFrontFunction(this, 'ForwardedHostFunction', {
      comment: 'Pass the public host to the API as x-forwarded-host',
      code: FunctionCode.fromInline(FORWARDED_HOST_FUNCTION),
      runtime: FunctionRuntime.JS_2_0,
    });

    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Content publisher security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(props.uploadOrigin),
          override: true,
        },
        // CloudFront's only X-Content-Type-Options value is nosniff.
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: SECURITY_HEADERS.frameOptions as HeadersFrameOption, override: true },
        referrerPolicy: { referrerPolicy: SECURITY_HEADERS.referrerPolicy as HeadersReferrerPolicy, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(SECURITY_HEADERS.strictTransportSecurity.maxAgeSeconds),
          includeSubdomains: SECURITY_HEADERS.strictTransportSecurity.includeSubdomains,
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: [{ header: 'Permissions-Policy', value: SECURITY_HEADERS.permissionsPolicy, override: true }],
      },
    });

    const withCertificate = props.certificate !== undefined && props.domainName !== undefined;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Content publisher: SPA and /api',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(withCertificate
        ? {
            domainNames: [props.domainName!],
            certificate: props.certificate!,
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      enableLogging: true,
      logBucket: this.logsBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new HttpOrigin(props.apiDomainName, {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [OriginSslPolicy.TLS_V1_2],
            // A viewer-sent header of the same name is replaced by CloudFront's value.
            ...(props.apiOriginHeaders ? { customHeaders: props.apiOriginHeaders } : {}),
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // Cookies, query strings and headers reach the API; Host is API Gateway's own. This managed
          // policy also adds CloudFront's viewer location headers, CloudFront-Viewer-Address among
          // them (the client address, functions/src/http/client-address.ts); a custom policy could
          // not both drop Host and add it without listing every viewer header the API reads.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders,
          functionAssociations: [{ function: forwardedHost, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
      },
    });

    if (!withCertificate) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose security ' +
          'policy CloudFront fixes at TLSv1 and cannot be raised. Give the context values domainName and ' +
          'certificateArn to serve a custom domain with TLSv1.2_2021 as the minimum.',
      });
    }
    if (!props.webAclArn) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'The stack creates and attaches its web ACL (per-client rate limits) unless it is turned off with the context ' +
          'value waf=false, e.g. for a deployment outside us-east-1; then only the HTTP API stage throttle limits the API. ' +
          'Pass the context value webAclArn to attach an existing web ACL instead.',
      });
    }
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The publishing tool serves its users wherever they are; there is no country to allow or deny.',
    });

    if (isBuiltSpa(props.spaDistDir)) {
      this.deploySpa(props.spaDistDir);
    } else {
      Annotations.of(this).addWarningV2(
        '@app/infra:spaNotBuilt',
        `No built SPA at ${props.spaDistDir} (index.html missing): the site bucket is left as it is. ` +
          'Run `npm run build` first (`npm run deploy` does).',
      );
    }
  }

  /**
   * Uploads the built SPA in two steps: the content-hashed files under assets/ first, cached for
   * a year and never pruned (pages already open keep finding their chunks), then everything else
   * (index.html, public files) revalidated on each use, with a CloudFront invalidation.
   */
  private deploySpa(distDir: string): void {
    // The build's .br/.gz copies are for the local server (functions/src/local/server.ts); CloudFront
    // compresses on its own, so they are not uploaded.
    const source = Source.asset(distDir, { exclude: ['**/*.br', '**/*.gz'] });
    const assets = new BucketDeployment(this, 'DeployAssets', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(Duration.days(365)), CacheControl.immutable()],
      memoryLimit: 512,
    });
    const rest = new BucketDeployment(this, 'DeployPages', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['assets/*'],
      prune: true,
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    rest.node.addDependency(assets);
    this.deployments.push(assets, rest);
    this.acknowledgeDeploymentFindings();
  }

  /**
   * The BucketDeployment handler (a singleton Lambda of the stack, with its role) is aws-cdk-lib's
   * own code; each finding it raises is acknowledged here, one by one, with its reason.
   */
  private acknowledgeDeploymentFindings(): void {
    const stack = Stack.of(this);
    const qualifier: unknown = this.node.tryGetContext(BOOTSTRAP_QUALIFIER_CONTEXT);
    const assetsBucket = `cdk-${typeof qualifier === 'string' ? qualifier : DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-<AWS::AccountId>-<AWS::Region>`;
    const siteBucketId = stack.resolve(stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket)) as string;
    const s3Actions = (actions: string[]) =>
      actions.map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason:
          `${action} comes from aws-cdk-lib's grantRead/grantReadWrite for BucketDeployment and applies only to the ` +
          'CDK assets bucket (reading the zipped SPA) and the site bucket (writing and pruning the SPA files).',
      }));

    for (const child of stack.node.children) {
      if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
      Validations.of(child).acknowledge(
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason:
            "aws-cdk-lib creates the BucketDeployment handler's role with the basic execution managed policy " +
            '(CloudWatch Logs only); the handler runs only while a deployment uploads the SPA.',
        },
        {
          id: 'AwsSolutions-L1',
          reason: "The BucketDeployment handler's runtime is chosen and kept current by aws-cdk-lib, not by this app.",
        },
        ...s3Actions(['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']),
        {
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${assetsBucket}/*]`,
          reason: 'The handler reads the zipped SPA that `cdk deploy` uploaded to the CDK bootstrap assets bucket.',
        },
        {
          id: `AwsSolutions-IAM5[Resource::<${siteBucketId}.Arn>/*]`,
          reason: 'The handler writes the SPA files into the site bucket and prunes the stale ones: every key in it.',
        },
        {
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'aws-cdk-lib grants cloudfront:CreateInvalidation and cloudfront:GetInvalidation on * to the BucketDeployment ' +
            'handler, to invalidate the distribution after an upload; no other action is granted on *.',
        },
      );
    }
  }
}
