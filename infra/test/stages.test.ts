import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { STAGE_PATTERN, parseStage, stageNames } from '../lib/stage.js';
import { testApp } from './helpers.js';

type Resource = { Type: string; Properties?: Record<string, unknown> };

interface Synthesized {
  stack: ContentPublisherStack;
  template: Template;
  resources: Record<string, Resource>;
}

const synth = (context: Record<string, unknown> = {}): Synthesized => {
  const { stack } = testApp({ context });
  const template = Template.fromStack(stack);
  return { stack, template, resources: template.toJSON().Resources as Record<string, Resource> };
};

/** The one resource of a type: its properties. */
const onlyOf = (s: Synthesized, type: string): Record<string, any> => {
  const found = Object.values(s.resources).filter((r) => r.Type === type);
  expect(found, type).toHaveLength(1);
  return found[0]!.Properties ?? {};
};

/** The names that are unique per account (and, for CloudFront, account-wide in every region). */
const accountNames = (s: Synthesized) => ({
  stack: s.stack.stackName,
  scheduleGroup: onlyOf(s, 'AWS::Scheduler::ScheduleGroup').Name as string,
  responseHeadersPolicy: onlyOf(s, 'AWS::CloudFront::ResponseHeadersPolicy').ResponseHeadersPolicyConfig.Name as string,
  originAccessControl: onlyOf(s, 'AWS::CloudFront::OriginAccessControl').OriginAccessControlConfig.Name as string,
  cloudFrontFunctions: Object.values(s.resources)
    .filter((r) => r.Type === 'AWS::CloudFront::Function')
    .map((r) => JSON.stringify(r.Properties!.Name))
    .sort(),
});

/** SECRETS_PREFIX of every function that has one, and the secret ARN patterns of every IAM policy. */
const secretsScope = (s: Synthesized) => {
  const prefixes = new Set<unknown>();
  for (const r of Object.values(s.resources)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const variables = (r.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
    if ('SECRETS_PREFIX' in variables) prefixes.add(variables.SECRETS_PREFIX);
  }
  const arns = new Set<string>();
  for (const r of Object.values(s.resources)) {
    if (r.Type !== 'AWS::IAM::Policy') continue;
    for (const match of JSON.stringify(r.Properties).matchAll(/:secret:([^"]*)"/g)) arns.add(match[1]!);
  }
  return { prefixes: [...prefixes], arns: [...arns] };
};

/**
 * Every property named `…Name` with a literal value (values made from other resources left out),
 * keyed by the resource's logical id and the property's path.
 */
function literalNames(s: Synthesized): Map<string, string> {
  const found = new Map<string, string>();
  // A value built from another resource of the stack (a Ref or GetAtt, not a pseudo parameter) is that resource's name.
  const isReference = (value: unknown) => /"Ref":"(?!AWS::)|"Fn::GetAtt"/.test(JSON.stringify(value));
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`));
    else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (key.endsWith('Name') && !isReference(child)) found.set(`${path}.${key}`, JSON.stringify(child));
        walk(child, `${path}.${key}`);
      }
    }
  };
  for (const [id, r] of Object.entries(s.resources)) walk(r.Properties ?? {}, `${r.Type} ${id}`);
  return found;
}

/**
 * Names two stages may share, because each is scoped to something that is itself unique per stage
 * (or is no name of a resource at all).
 */
const SCOPED_NAMES: [RegExp, string][] = [
  [/^AWS::DynamoDB::Table .*\.(AttributeName|IndexName)$/, 'keys and indexes of the (generated-name) table'],
  [/^AWS::IAM::Policy .*\.PolicyName$/, "an inline policy's name is scoped to its (generated-name) role"],
  [
    /^AWS::CloudWatch::Alarm .*\.(MetricName|Dimensions\[\d+\]\.Name)$/,
    "the metric an alarm watches; its dimension values are the stage's resources",
  ],
  [
    /^AWS::WAFv2::WebACL .*\.(Rules\[\d+\]\.Name|MetricName)$/,
    'rules and metrics of the web ACL, whose name CloudFormation generates',
  ],
  [/^AWS::ApiGatewayV2::Stage .*\.StageName$/, "the HTTP API's $default stage"],
  [/^AWS::ApiGatewayV2::Api .*\.Name$/, 'HTTP API names need not be unique (the API id is)'],
  [/^AWS::CloudFront::Distribution .*\.HeaderName$/, 'an HTTP header (x-origin-verify), not a resource'],
  [/^AWS::WAFv2::LoggingConfiguration .*\.SingleHeader\.Name$/, 'an HTTP header the WAF log redacts, not a resource'],
  [/^AWS::Scheduler::Schedule .*\.Name$/, "a schedule's name is scoped to its group, which is named per stage"],
  [/^AWS::SNS::Topic .*\.DisplayName$/, "the alarm e-mails' sender name; the topic's name is generated"],
  [/^AWS::Lambda::Alias .*\.Name$/, 'the live alias, whose name is scoped to its (generated-name) function'],
];

describe('stages: dev and prod side by side in one account and region', () => {
  let unstaged: Synthesized;
  let dev: Synthesized;
  let prod: Synthesized;
  beforeAll(() => {
    unstaged = synth();
    // A named stage must say who hears of its alarms (observability.test.ts).
    dev = synth({ stage: 'dev', alarmEmail: 'ops@example.com' });
    prod = synth({ stage: 'prod', alarmEmail: 'ops@example.com' });
  });

  it('without a stage the names are those of the existing deployment (it is updated in place, not replaced)', () => {
    expect(accountNames(unstaged)).toEqual({
      stack: 'ContentPublisher',
      scheduleGroup: 'ContentPublisher-schedules',
      // CDK generates these from the construct path; pinned, because another name replaces the resource.
      responseHeadersPolicy: 'ContentPublisherSiteSecurityHeaders17AEA694',
      originAccessControl: 'ContentPublisherSiteDistribuOrigin1S3OriginAccessControlBAE63018',
      cloudFrontFunctions: [
        JSON.stringify({ 'Fn::Join': ['', [{ Ref: 'AWS::Region' }, 'ContentPublisheraRewriteFunctionC337C611']] }),
        JSON.stringify({ 'Fn::Join': ['', [{ Ref: 'AWS::Region' }, 'ContentPublisherrdedHostFunction910BA6C5']] }),
      ].sort(),
    });
    expect(secretsScope(unstaged)).toEqual({
      prefixes: ['content-publisher/'],
      arns: ['content-publisher/*', 'content-publisher/*/*'],
    });
  });

  it('each stage names the stack, the schedule group, the response-headers policy, the origin access control and the CloudFront functions', () => {
    const names = [accountNames(unstaged), accountNames(dev), accountNames(prod)];
    expect(names[1]!.stack).toBe('ContentPublisher-dev');
    expect(names[2]!.stack).toBe('ContentPublisher-prod');
    expect(names[1]!.scheduleGroup).toBe('ContentPublisher-dev-schedules');
    expect(names[2]!.scheduleGroup).toBe('ContentPublisher-prod-schedules');
    expect(names[1]!.responseHeadersPolicy).toMatch(/^ContentPublisherdev/);
    expect(names[2]!.originAccessControl).toMatch(/^ContentPublisherprod/);
    for (const key of ['stack', 'scheduleGroup', 'responseHeadersPolicy', 'originAccessControl'] as const) {
      expect(new Set(names.map((n) => n[key])).size, key).toBe(3);
    }
    expect(new Set(names.flatMap((n) => n.cloudFrontFunctions)).size).toBe(6);
  });

  it("each stage's functions use its own secrets prefix, and their IAM policies reach no other stage's secrets", () => {
    // <prefix>* and, for DeleteSecret, the one-per-key names of before, <prefix>*/*.
    expect(secretsScope(dev)).toEqual({
      prefixes: ['content-publisher-dev/'],
      arns: ['content-publisher-dev/*', 'content-publisher-dev/*/*'],
    });
    expect(secretsScope(prod)).toEqual({
      prefixes: ['content-publisher-prod/'],
      arns: ['content-publisher-prod/*', 'content-publisher-prod/*/*'],
    });
    expect(dev.stack.stageNames.userSecretsPrefix).toBe('content-publisher-dev/');
    // An ARN pattern `<prefix>*` covers exactly the names starting with the prefix: none starts another's.
    const prefixes = [
      'content-publisher/',
      'content-publisher-dev/',
      'content-publisher-prod/',
      stageNames('dev2').userSecretsPrefix,
    ];
    for (const a of prefixes)
      for (const b of prefixes) if (a !== b) expect(b.startsWith(a), `${a} covers ${b}`).toBe(false);
  });

  it("each stage's functions emit their metrics to a namespace of its own", () => {
    const namespaces = (s: Synthesized) =>
      new Set(
        Object.values(s.resources)
          .filter((r) => r.Type === 'AWS::Lambda::Function')
          .map(
            (r) =>
              (r.Properties!.Environment as { Variables: Record<string, unknown> }).Variables
                .POWERTOOLS_METRICS_NAMESPACE,
          ),
      );
    expect(namespaces(unstaged)).toEqual(new Set(['ContentPublisher']));
    expect(namespaces(dev)).toEqual(new Set(['ContentPublisher-dev']));
    expect(namespaces(prod)).toEqual(new Set(['ContentPublisher-prod']));
  });

  it('no other name is shared by two stages: every other literal name is scoped to a resource of its stage', () => {
    const devNames = literalNames(dev);
    const prodNames = literalNames(prod);
    expect([...devNames.keys()].sort()).toEqual([...prodNames.keys()].sort());
    const shared = [...devNames].filter(([path, value]) => prodNames.get(path) === value).map(([path]) => path);
    const unexplained = shared.filter((path) => !SCOPED_NAMES.some(([pattern]) => pattern.test(path)));
    expect(unexplained).toEqual([]);
    // Names CloudFormation generates from the stack name (so per stage): none of these is set.
    for (const [type, property] of [
      ['AWS::Lambda::Function', 'FunctionName'],
      ['AWS::IAM::Role', 'RoleName'],
      ['AWS::Logs::LogGroup', 'LogGroupName'],
      ['AWS::DynamoDB::Table', 'TableName'],
      ['AWS::S3::Bucket', 'BucketName'],
      ['AWS::SQS::Queue', 'QueueName'],
      ['AWS::SNS::Topic', 'TopicName'],
      ['AWS::SecretsManager::Secret', 'Name'],
      ['AWS::CloudWatch::Alarm', 'AlarmName'],
      ['AWS::WAFv2::WebACL', 'Name'],
    ] as const) {
      for (const [id, r] of Object.entries(prod.resources).filter(([, x]) => x.Type === type)) {
        // AWS WAF logs only to a log group named aws-waf-logs-…: named after the stack, so per stage too.
        if (
          id === prod.stack.resolve(prod.stack.getLogicalId(prod.stack.webAcl!.logGroup.node.defaultChild as never))
        ) {
          expect(r.Properties?.[property]).toBe('aws-waf-logs-ContentPublisher-prod');
          continue;
        }
        expect(r.Properties?.[property], `${type}.${property}`).toBeUndefined();
      }
    }
  });
});

describe('the stage context value', () => {
  it.each(['dev', 'prod', 'team-a', 'a', 'x1234567890abcde'])('accepts %s', (stage) => {
    expect(parseStage(stage)).toBe(stage);
    expect(STAGE_PATTERN.test(stage)).toBe(true);
  });

  it('absent or blank: no stage', () => {
    expect(parseStage(undefined)).toBeUndefined();
    expect(parseStage('  ')).toBeUndefined();
  });

  it.each(['Dev', 'dev_1', '-dev', 'dev-', '1dev', 'dev/prod', 'a'.repeat(17)])(
    'refuses %s at synthesis, saying what a stage may be',
    (stage) => {
      expect(() => testApp({ context: { stage } })).toThrow(
        /stage must be 1 to 16 lower-case letters, digits or inner hyphens/,
      );
    },
  );
});

describe('custom domain: domainName and certificateArn go together', () => {
  const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';

  it('domainName without certificateArn fails synthesis with what to give', () => {
    expect(() => testApp({ context: { domainName: 'publish.example.com' } })).toThrow(
      /domainName "publish\.example\.com" needs certificateArn too: the ARN of an ACM certificate for that name in us-east-1/,
    );
  });

  it('certificateArn without domainName fails synthesis with what to give', () => {
    expect(() => testApp({ context: { certificateArn } })).toThrow(/certificateArn is given without domainName/);
  });

  it('a certificate outside us-east-1 fails synthesis (CloudFront takes certificates from us-east-1 only)', () => {
    expect(() =>
      testApp({
        context: {
          domainName: 'publish.example.com',
          certificateArn: certificateArn.replace('us-east-1', 'eu-west-1'),
        },
      }),
    ).toThrow(/certificateArn is in eu-west-1, but CloudFront uses ACM certificates from us-east-1 only/);
  });

  it('both together: the distribution serves the domain', () => {
    const s = synth({
      domainName: 'publish.example.com',
      certificateArn,
      stage: 'prod',
      alarmEmail: 'ops@example.com',
    });
    expect(onlyOf(s, 'AWS::CloudFront::Distribution').DistributionConfig.Aliases).toEqual(['publish.example.com']);
  });
});
