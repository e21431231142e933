import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations, type App } from 'aws-cdk-lib';
import { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { routeGroups } from '@app/shared/api';
import { builtSpaDir, testApp, type TestAppOptions } from './helpers.js';

/**
 * cdk-nag 3 is a policy-validation plugin: at synthesis CDK runs it and writes what it found
 * (minus what `Validations.of(x).acknowledge()` covers) into validation-report.json of the
 * cloud assembly; if anything is left, synthesis fails (under vitest it throws, in the CLI the
 * report is printed and the exit code is 1).
 */
interface Violation {
  ruleName: string;
  description: string;
  severity?: string;
  violatingConstructs?: { constructPath: string }[];
}
interface ValidationReport {
  pluginReports: { pluginName: string; conclusion: string; violations: Violation[] }[];
}

function synthWithNag(options: TestAppOptions = {}, extend?: (app: App) => void) {
  const { app, stack } = testApp({ ...options, nag: true });
  extend?.(app);
  let error: unknown;
  try {
    app.synth();
  } catch (e) {
    error = e;
  }
  const report = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  const nag = report.pluginReports.filter((p) => p.pluginName === 'AwsSolutions').flatMap((p) => p.violations);
  return { app, stack, error, nag };
}

const describeViolations = (violations: Violation[]): string =>
  violations
    .map(
      (v) =>
        `${v.severity} ${v.ruleName}: ${v.description} at ${(v.violatingConstructs ?? []).map((c) => c.constructPath).join(', ')}`,
    )
    .join('\n');

/** Every acknowledgment recorded in the tree: [construct path, rule id, reason]. */
function acknowledgments(root: IConstruct): [string, string, string][] {
  const found: [string, string, string][] = [];
  for (const construct of root.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY || !entry.data) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        found.push([construct.node.path, id.replace(/^annotation::/i, ''), reason]);
      }
    }
  }
  return found;
}

const variants: [string, TestAppOptions][] = [
  ['fresh clone (SPA not built)', {}],
  ['built SPA (BucketDeployment)', { stack: { spaDistDir: builtSpaDir() } }],
  [
    'custom domain, certificate, web ACL and alarm e-mail',
    {
      context: {
        domainName: 'publish.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
        webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/publisher/abcd',
        publicUrl: 'https://publish.example.com',
        alarmEmail: 'ops@example.com',
      },
    },
  ],
  ['without a web ACL (waf=false)', { context: { waf: 'false' } }],
  // The stage's own secrets prefix is what the IAM5 acknowledgment names.
  ['stage dev, alarm e-mail', { context: { stage: 'dev', alarmEmail: 'ops@example.com' } }],
];

describe('cdk-nag AwsSolutions', () => {
  it.each(variants)('%s: no unsuppressed error (nor warning), synthesis succeeds', (_name, options) => {
    const { error, nag } = synthWithNag(options);
    const errors = nag.filter((v) => v.severity === 'error');
    expect(errors, describeViolations(errors)).toEqual([]);
    expect(nag, describeViolations(nag)).toEqual([]);
    expect(error).toBeUndefined();
  });

  it('does run: an unchecked bucket added to the app is reported as errors and fails synthesis', () => {
    const { error, nag } = synthWithNag({}, (app) => {
      new Bucket(app.node.findChild('ContentPublisher'), 'Unchecked');
    });
    const rules = nag.filter((v) => v.severity === 'error').map((v) => v.ruleName);
    expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-S1', 'AwsSolutions-S10']));
    for (const v of nag) {
      expect(v.violatingConstructs?.map((c) => c.constructPath)).toEqual(['ContentPublisher/Unchecked/Resource']);
    }
    expect(String(error)).toMatch(/ValidationFailed[\s\S]*AwsSolutions-S1/);
  });

  it('every AwsSolutions acknowledgment carries a real reason', () => {
    const { app } = testApp({ stack: { spaDistDir: builtSpaDir() }, nag: true });
    const ours = acknowledgments(app).filter(([, id]) => id.startsWith('AwsSolutions-'));
    expect(ours.length).toBeGreaterThan(0);
    for (const [path, id, reason] of ours) {
      expect(reason.length, `${id} at ${path}`).toBeGreaterThanOrEqual(60);
    }
  });

  it('acknowledges exactly the expected rules (a new suppression must be added here on purpose)', () => {
    const { app, stack } = testApp({ nag: true });
    const ids = acknowledgments(app)
      .filter(([, id]) => id.startsWith('AwsSolutions-'))
      .map(([path, id]) => `${path.replace(/^ContentPublisher\//, '')} ${id}`)
      .sort();
    const imagesBucketId = stack.resolve(
      stack.getLogicalId(stack.imagesBucket.node.defaultChild as CfnBucket),
    ) as string;
    // IAM5: names made at run time, allowed by prefix only (the reasons are in the stack).
    const userSecrets =
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:content-publisher/*]';
    // DeleteSecret on the one-per-key secrets of before (<prefix><userId>/<key>), for the functions that write secrets.
    const oldUserSecrets =
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:content-publisher/*/*]';
    const userImages = `AwsSolutions-IAM5[Resource::<${imagesBucketId}.Arn>/users/*]`;
    const schedules = `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${stack.schedules.group.scheduleGroupName}/*]`;
    expect(ids).toEqual(
      [
        ...routeGroups().map((group) => `Fn-${group}/Function AwsSolutions-L1`),
        'Fn-worker/Function AwsSolutions-L1',
        'Backfills/Fn/Function AwsSolutions-L1',
        `Fn-settings/Role ${userSecrets}`,
        `Fn-articles/Role ${userSecrets}`,
        `Fn-wordpress/Role ${userSecrets}`,
        `Fn-linkedin/Role ${userSecrets}`,
        `Fn-channels/Role ${userSecrets}`,
        `Fn-email/Role ${userSecrets}`,
        `Fn-approvals/Role ${userSecrets}`,
        `Fn-sheets/Role ${userSecrets}`,
        `Fn-worker/Role ${userSecrets}`,
        `Fn-workspaces/Role ${userSecrets}`,
        ...['settings', 'wordpress', 'linkedin', 'channels', 'email', 'sheets', 'workspaces'].map(
          (group) => `Fn-${group}/Role ${oldUserSecrets}`,
        ),
        `Fn-images/Role ${userImages}`,
        `Fn-wordpress/Role ${userImages}`,
        `Fn-linkedin/Role ${userImages}`,
        `Fn-channels/Role ${userImages}`,
        `Fn-approvals/Role ${userImages}`,
        `Fn-worker/Role ${userImages}`,
        // IAM5: the browser's raw uploads, keys made at run time, under uploads/ only (the images function signs them).
        `Fn-images/Role AwsSolutions-IAM5[Resource::<${imagesBucketId}.Arn>/uploads/*]`,
        // IAM5: one-off schedules made at run time, allowed in the stack's own group only (the worker: its retries).
        `Fn-schedule/Role ${schedules}`,
        // SQS3: the domain events' failure queue is itself a dead-letter queue (the stream's on-failure destination).
        'EventDelivery/DeadLetterQueue AwsSolutions-SQS3',
        // IAM5: dynamodb:ListStreams has no resource to name (the stream's reads name its ARN: event-delivery.ts).
        'Fn-worker/Role AwsSolutions-IAM5[Resource::*]',
        `Fn-worker/Role ${schedules}`,
        'Http AwsSolutions-APIG4',
        'SessionSecret AwsSolutions-SMG4',
        // SMG4: CloudFront gets the origin secret at deployment; the setup code is used once.
        'OriginSecret AwsSolutions-SMG4',
        'SetupCode AwsSolutions-SMG4',
        // No CFR2: the stack's own web ACL is attached by default.
        'Site/Distribution AwsSolutions-CFR1',
        'Site/Distribution AwsSolutions-CFR4',
        'Site/LogsBucket AwsSolutions-S1',
        // IAM4: the policy AWS keeps for CodeDeploy's Lambda deployments (the deployment groups' one role).
        'Deployments/Role AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      ].sort(),
    );
  });
});
