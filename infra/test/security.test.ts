import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../functions/src/http/client-address.js';
import { routeGroups, routes } from '@app/shared/api';
import { contextFlag } from '../lib/app.js';
import { ContentPublisherStack, setupCodeCommand } from '../lib/content-publisher-stack.js';
import { AUTH_RATE_LIMITED_ROUTES, RATE_LIMITS, RATE_WINDOW_SECONDS, WEB_ACL_REGION } from '../lib/web-acl.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';
import { projectRootForTests, testApp, unbuiltSpaDir } from './helpers.js';

type Resource = { Type: string; Properties: Record<string, any>; Condition?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string =>
  stack.resolve(stack.getLogicalId(construct.node.defaultChild as never)) as string;

function synth(context: Record<string, unknown> = {}) {
  const { stack } = testApp({ context });
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const distribution = () =>
    Object.values(template.findResources('AWS::CloudFront::Distribution') as Record<string, Resource>)[0]!;
  const apiBehaviour = () =>
    (distribution().Properties.DistributionConfig.CacheBehaviors as any[]).find((b) => b.PathPattern === '/api/*');
  const apiOrigin = () =>
    (distribution().Properties.DistributionConfig.Origins as any[]).find((o) => o.Id === apiBehaviour().TargetOriginId);
  const fnOf = (name: string) => (name === WORKER_ENTRY_NAME ? stack.worker : stack.functions.get(name)!);
  const environmentOf = (name: string): Record<string, unknown> =>
    resources[logicalId(stack, fnOf(name).function)]!.Properties.Environment.Variables;
  /** [action, resource] pairs of the Secrets Manager statements of a function's role. */
  const secretGrantsOf = (name: string): [string, unknown][] => {
    const roleId = logicalId(stack, fnOf(name).role);
    return Object.values(resources)
      .filter(
        (r) => r.Type === 'AWS::IAM::Policy' && (r.Properties.Roles as { Ref: string }[]).some((x) => x.Ref === roleId),
      )
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
      .flatMap((s) =>
        asArray(s.Action)
          .filter((a) => a.startsWith('secretsmanager:'))
          .flatMap((a) => asArray(s.Resource).map((r) => [a, r] as [string, unknown])),
      );
  };
  const webAcls = () => template.findResources('AWS::WAFv2::WebACL') as Record<string, Resource>;
  return { stack, template, resources, distribution, apiBehaviour, apiOrigin, environmentOf, secretGrantsOf, webAcls };
}

describe('web ACL: per-client rate limits (on by default)', () => {
  let s: ReturnType<typeof synth>;
  beforeAll(() => {
    s = synth();
  });

  it('is one CLOUDFRONT-scope web ACL that allows by default, attached to the distribution', () => {
    const acls = Object.entries(s.webAcls());
    expect(acls).toHaveLength(1);
    const [id, acl] = acls[0]!;
    expect(acl.Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(s.distribution().Properties.DistributionConfig.WebACLId).toEqual({ 'Fn::GetAtt': [id, 'Arn'] });
  });

  it('limits each client IP address: 100 sign-ins/registrations and 1000 API calls per 5 minutes, answering 429', () => {
    expect(RATE_LIMITS).toEqual({ auth: 100, api: 1000 });
    expect(RATE_WINDOW_SECONDS).toBe(300);
    const rules = Object.values(s.webAcls())[0]!.Properties.Rules as any[];
    expect(rules.map((r) => [r.Name, r.Priority])).toEqual([
      ['auth-per-ip', 0],
      ['api-per-ip', 1],
    ]);
    for (const rule of rules) {
      expect(rule.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429 } } });
      expect(rule.Statement.RateBasedStatement).toMatchObject({ AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
      expect(rule.VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
    }
    const [auth, api] = rules.map((r) => r.Statement.RateBasedStatement);
    expect(auth.Limit).toBe(100);
    const authPaths = routes
      .filter((r) => (AUTH_RATE_LIMITED_ROUTES as readonly string[]).includes(r.id))
      .map((r) => r.path);
    expect(authPaths.sort()).toEqual(['/api/auth/login', '/api/auth/register']);
    expect(auth.ScopeDownStatement.OrStatement.Statements.map((st: any) => st.ByteMatchStatement)).toEqual(
      authPaths.map((path) =>
        expect.objectContaining({ SearchString: path, PositionalConstraint: 'EXACTLY', FieldToMatch: { UriPath: {} } }),
      ),
    );
    expect(api.Limit).toBe(1000);
    expect(api.ScopeDownStatement.ByteMatchStatement).toMatchObject({
      SearchString: '/api/',
      PositionalConstraint: 'STARTS_WITH',
      FieldToMatch: { UriPath: {} },
    });
  });

  it('stops a deployment outside us-east-1 before anything is created (template rule on AWS::Region)', () => {
    const rules = s.template.toJSON().Rules as Record<
      string,
      { Assertions: { Assert: unknown; AssertDescription: string }[] }
    >;
    const rule = Object.values(rules).find((r) => JSON.stringify(r).includes(WEB_ACL_REGION))!;
    expect(rule.Assertions).toEqual([
      {
        Assert: { 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] },
        AssertDescription: expect.stringMatching(/us-east-1.*webAclArn.*waf=false/),
      },
    ]);
  });

  it('a stack bound to another region fails at synthesis, saying what to do', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    expect(
      () =>
        new ContentPublisherStack(app, 'Elsewhere', {
          env: { region: 'eu-west-1' },
          projectRoot: projectRootForTests(),
          spaDistDir: unbuiltSpaDir(),
        }),
    ).toThrow(/us-east-1.*eu-west-1.*webAclArn.*waf=false/);
  });
});

describe('web ACL context values', () => {
  it.each(['false', false, 'off', '0'])('waf=%j: no web ACL, no region rule, nothing attached', (waf) => {
    const s = synth({ waf });
    expect(s.webAcls()).toEqual({});
    expect(s.template.toJSON().Rules?.WebAclRegion).toBeUndefined();
    expect(s.distribution().Properties.DistributionConfig.WebACLId).toBeUndefined();
  });

  it('webAclArn attaches that ACL instead of creating one (any region)', () => {
    const arn = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/publisher/abcd';
    const s = synth({ webAclArn: arn });
    expect(s.webAcls()).toEqual({});
    expect(s.template.toJSON().Rules?.WebAclRegion).toBeUndefined();
    expect(s.distribution().Properties.DistributionConfig.WebACLId).toBe(arn);
  });

  it('reads yes/no context values as the CLI passes them (strings) or as cdk.json does (booleans)', () => {
    const flag = (value: unknown) =>
      contextFlag(new App({ context: value === undefined ? {} : { waf: value } }), 'waf');
    expect([undefined, '', true, 'true', 'TRUE', '1', 'yes', 'on'].map(flag)).toEqual([
      undefined,
      undefined,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([false, 'false', 'False', '0', 'no', 'off'].map(flag)).toEqual([false, false, false, false, false, false]);
    expect(() => flag('maybe')).toThrow(/waf must be true or false/);
  });
});

describe('API reachable only through CloudFront: the origin secret', () => {
  let s: ReturnType<typeof synth>;
  let originSecretId: string;
  beforeAll(() => {
    s = synth();
    originSecretId = logicalId(s.stack, s.stack.originSecret);
  });

  it('is a generated secret (no value in the template)', () => {
    const secret = s.resources[originSecretId]!;
    expect(secret.Type).toBe('AWS::SecretsManager::Secret');
    expect(secret.Properties.GenerateSecretString).toMatchObject({ ExcludePunctuation: true });
    expect(secret.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(32);
    expect(secret.Properties.SecretString).toBeUndefined();
  });

  it('CloudFront adds it to every /api/* request as x-origin-verify, resolved from Secrets Manager at deployment', () => {
    expect(ORIGIN_SECRET_HEADER).toBe('x-origin-verify');
    expect(s.apiOrigin().OriginCustomHeaders).toEqual([
      {
        HeaderName: 'x-origin-verify',
        HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: originSecretId }, ':SecretString:::}}']] },
      },
    ]);
    // Only the API origin carries it: the site bucket must never see it.
    const s3Origin = (s.distribution().Properties.DistributionConfig.Origins as any[]).find((o) => o.S3OriginConfig);
    expect(s3Origin.OriginCustomHeaders).toBeUndefined();
  });

  it.each(routeGroups())('%s: gets ORIGIN_SECRET_ARN and may read that secret', (group) => {
    expect(s.environmentOf(group).ORIGIN_SECRET_ARN).toEqual({ Ref: originSecretId });
    expect(s.secretGrantsOf(group)).toEqual(
      expect.arrayContaining([
        ['secretsmanager:GetSecretValue', { Ref: originSecretId }],
        ['secretsmanager:DescribeSecret', { Ref: originSecretId }],
      ]),
    );
  });

  it('the worker (no HTTP) gets neither', () => {
    expect(s.environmentOf(WORKER_ENTRY_NAME).ORIGIN_SECRET_ARN).toBeUndefined();
    expect(s.secretGrantsOf(WORKER_ENTRY_NAME).map(([, r]) => r)).not.toContainEqual({ Ref: originSecretId });
  });

  it('the value never appears in the template as text', () => {
    const template = JSON.stringify(s.template.toJSON());
    expect(template.match(/\{\{resolve:secretsmanager:/g)).toHaveLength(1);
  });
});

describe('client address: CloudFront-Viewer-Address reaches the API', () => {
  it('the /api/* behaviour uses AllViewerExceptHostHeader, which adds the viewer location headers (CloudFront-Viewer-Address among them), and no custom policy', () => {
    const s = synth();
    expect(VIEWER_ADDRESS_HEADER).toBe('cloudfront-viewer-address');
    expect(s.apiBehaviour().OriginRequestPolicyId).toBe(
      OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    );
    expect(s.template.findResources('AWS::CloudFront::OriginRequestPolicy')).toEqual({});
  });
});

describe('first admin: the one-time setup code', () => {
  let s: ReturnType<typeof synth>;
  let setupId: string;
  beforeAll(() => {
    s = synth();
    setupId = logicalId(s.stack, s.stack.setupCodeSecret);
  });

  it('is generated into Secrets Manager: 24 letters and digits', () => {
    const secret = s.resources[setupId]!;
    expect(secret.Type).toBe('AWS::SecretsManager::Secret');
    expect(secret.Properties.GenerateSecretString).toEqual({ PasswordLength: 24, ExcludePunctuation: true });
    expect(secret.Properties.SecretString).toBeUndefined();
  });

  it('only the auth function gets SETUP_CODE_SECRET_ARN and may read it', () => {
    for (const name of [...routeGroups(), WORKER_ENTRY_NAME]) {
      const reads = s.secretGrantsOf(name).filter(([, r]) => JSON.stringify(r) === JSON.stringify({ Ref: setupId }));
      if (name === 'auth') {
        expect(s.environmentOf(name).SETUP_CODE_SECRET_ARN).toEqual({ Ref: setupId });
        expect(reads.map(([a]) => a).sort()).toEqual([
          'secretsmanager:DescribeSecret',
          'secretsmanager:GetSecretValue',
        ]);
      } else {
        expect(s.environmentOf(name).SETUP_CODE_SECRET_ARN, name).toBeUndefined();
        expect(reads, name).toEqual([]);
      }
    }
  });

  it('the SetupCodeCommand output is the command that prints it', () => {
    const output = s.template.findOutputs('SetupCodeCommand').SetupCodeCommand!;
    expect(output.Value).toEqual({
      'Fn::Join': [
        '',
        [
          'aws secretsmanager get-secret-value --secret-id ',
          { Ref: setupId },
          ' --region ',
          { Ref: 'AWS::Region' },
          ' --query SecretString --output text',
        ],
      ],
    });
    expect(setupCodeCommand('ARN', 'eu-west-1')).toBe(
      'aws secretsmanager get-secret-value --secret-id ARN --region eu-west-1 --query SecretString --output text',
    );
  });

  it('no function has ADMIN_EMAIL: the first admin is claimed with the setup code only', () => {
    for (const name of [...routeGroups(), WORKER_ENTRY_NAME])
      expect(s.environmentOf(name).ADMIN_EMAIL, name).toBeUndefined();
  });

  it('refuses the adminEmail context value of older versions, saying what to do instead', () => {
    expect(() => synth({ adminEmail: 'admin@example.com' })).toThrow(
      /adminEmail context value is no longer supported.*setup code/,
    );
  });
});
