import { CfnOutput, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Grant } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { routeGroups } from '../../functions/src/routes.js';
import { ApiFunction } from './api-function.js';
import { DataTable } from './data-table.js';
import { HttpApiRoutes } from './http-api.js';
import { defaultSpaDistDir, lambdaEntryPath, repoRoot } from './paths.js';
import { Site } from './site.js';

/** What an API function may do with the table: item reads and writes and queries; no Scan, no table admin. */
export const TABLE_DATA_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

export interface ContentPublisherStackProps extends StackProps {
  /** The npm workspaces root (bundling root; entries are functions/src/lambda/<group>.ts under it). */
  projectRoot?: string;
  /** The built SPA to upload (default frontend/dist). */
  spaDistDir?: string;
  /** Public base URL, passed to the functions as PUBLIC_URL (else they use x-forwarded-host). */
  publicUrl?: string;
  /** Optional custom domain and its ACM certificate (us-east-1) for the distribution. */
  domainName?: string;
  certificateArn?: string;
  /** Optional AWS WAF web ACL (CLOUDFRONT scope) for the distribution. */
  webAclArn?: string;
}

/**
 * The whole application: CloudFront → S3 (SPA) and → HTTP API → one Lambda per route group →
 * one DynamoDB table, with the session-signing secret in Secrets Manager.
 */
export class ContentPublisherStack extends Stack {
  readonly data: DataTable;
  readonly sessionSecret: Secret;
  readonly functions = new Map<string, ApiFunction>();
  readonly http: HttpApiRoutes;
  readonly site: Site;

  constructor(scope: Construct, id: string, props: ContentPublisherStackProps = {}) {
    super(scope, id, props);
    const projectRoot = props.projectRoot ?? repoRoot;

    this.data = new DataTable(this, 'Data');

    this.sessionSecret = new Secret(this, 'SessionSecret', {
      description: 'Content publisher: key that signs session tokens (HS256)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.sessionSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'This is the key that signs session cookies, not a credential of another service: rotating it signs every ' +
        'user out, so it is rotated on purpose (replace the secret value) rather than on a schedule.',
    });

    const publicUrl = props.publicUrl ?? (props.domainName ? `https://${props.domainName}` : undefined);
    const environment: Record<string, string> = {
      TABLE_NAME: this.data.table.tableName,
      SESSION_SECRET_ARN: this.sessionSecret.secretArn,
      ...(publicUrl ? { PUBLIC_URL: publicUrl.replace(/\/+$/, '') } : {}),
    };

    for (const group of routeGroups()) {
      const fn = new ApiFunction(this, `Fn-${group}`, {
        group,
        entry: lambdaEntryPath(projectRoot, group),
        projectRoot,
        environment,
      });
      Grant.addToPrincipal({
        grantee: fn.role,
        actions: [...TABLE_DATA_ACTIONS],
        resourceArns: this.data.resourceArns,
      });
      this.sessionSecret.grantRead(fn.role);
      this.functions.set(group, fn);
    }

    this.http = new HttpApiRoutes(this, 'Http', {
      functions: new Map<string, IFunction>([...this.functions].map(([group, fn]) => [group, fn.function])),
    });

    this.site = new Site(this, 'Site', {
      apiDomainName: this.http.domainName,
      spaDistDir: props.spaDistDir ?? defaultSpaDistDir,
      domainName: props.domainName,
      certificate: props.certificateArn
        ? Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn)
        : undefined,
      webAclArn: props.webAclArn,
    });

    new CfnOutput(this, 'DistributionUrl', {
      description: 'The application (SPA and /api) through CloudFront',
      value: `https://${this.site.distribution.distributionDomainName}`,
    });
    new CfnOutput(this, 'ApiUrl', {
      description: 'The HTTP API endpoint (CloudFront forwards /api/* to it)',
      value: this.http.url,
    });
    new CfnOutput(this, 'TableName', { description: 'The DynamoDB table', value: this.data.table.tableName });
    new CfnOutput(this, 'SiteBucketName', { description: 'The bucket holding the built SPA', value: this.site.bucket.bucketName });
  }
}
