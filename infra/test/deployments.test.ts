import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '@app/shared/api';
import { ROLLBACK_ALARM_DEFAULTS } from '../lib/alarms.js';
import { LIVE_ALIAS_NAME } from '../lib/app-function.js';
import type { ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { DEPLOYMENT_CONFIGS } from '../lib/deployment.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';
import { logicalId, synthesizeDefaultStack, testApp, type DefaultStack, type Resource } from './helpers.js';

const names = () => [...routeGroups(), WORKER_ENTRY_NAME];
const appFunction = (stack: ContentPublisherStack, name: string) =>
  name === WORKER_ENTRY_NAME ? stack.worker : stack.functions.get(name)!;

let s: DefaultStack;
let resources: Record<string, Resource & { UpdatePolicy?: any }>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const fnId = (name: string) => logicalId(s.stack, appFunction(s.stack, name).function);
const aliasId = (name: string) => logicalId(s.stack, appFunction(s.stack, name).alias);

beforeAll(() => {
  s = synthesizeDefaultStack();
  resources = s.template.toJSON().Resources as typeof resources;
});

describe('versions and live aliases', () => {
  it.each(names())('%s: one version of the function, and the alias "live" on it', (name) => {
    const versions = ofType('AWS::Lambda::Version').filter(
      ([, r]) => JSON.stringify(r.Properties.FunctionName) === JSON.stringify({ Ref: fnId(name) }),
    );
    expect(versions).toHaveLength(1);
    const aliases = ofType('AWS::Lambda::Alias').filter(
      ([, r]) => JSON.stringify(r.Properties.FunctionName) === JSON.stringify({ Ref: fnId(name) }),
    );
    expect(aliases.map(([id]) => id)).toEqual([aliasId(name)]);
    expect(aliases[0]![1].Properties).toEqual({
      FunctionName: { Ref: fnId(name) },
      FunctionVersion: { 'Fn::GetAtt': [versions[0]![0], 'Version'] },
      Name: LIVE_ALIAS_NAME,
    });
  });

  it('a version per function and no other: the route groups and the worker (and the backfill function)', () => {
    // The backfill function is an AppFunction too, so it has its version and alias; CloudFormation invokes it
    // directly (table-backfills.ts), once per deployment, so no deployment shifts it.
    expect(ofType('AWS::Lambda::Version')).toHaveLength(names().length + 1);
    expect(ofType('AWS::Lambda::Alias')).toHaveLength(names().length + 1);
    expect(names()).toHaveLength(routeGroups().length + 1);
  });

  it('nothing invokes $LATEST: outside its version, alias, alarms and dashboard no resource names a function but by its alias', () => {
    // Where naming the function itself is right: what makes the version and the alias, the alias's own
    // async-invoke settings (FunctionName with the alias as Qualifier), and the metrics' FunctionName dimension.
    const allowed = new Set([
      'AWS::Lambda::Version',
      'AWS::Lambda::Alias',
      'AWS::Lambda::EventInvokeConfig',
      'AWS::CloudWatch::Alarm',
      'AWS::CloudWatch::Dashboard',
    ]);
    const fnIds = names().map(fnId);
    const offenders: string[] = [];
    for (const [id, r] of Object.entries(resources)) {
      if (allowed.has(r.Type)) continue;
      const text = JSON.stringify(r.Properties ?? {});
      for (const f of fnIds) {
        if (text.includes(`{"Ref":"${f}"}`) || text.includes(`"Fn::GetAtt":["${f}",`))
          offenders.push(`${r.Type} ${id}`);
      }
    }
    // But the scheduler role's policy: the schedules made before the alias target the worker itself (below).
    expect(offenders).toEqual([
      `AWS::IAM::Policy ${logicalId(s.stack, s.stack.schedules.role.node.findChild('DefaultPolicy'))}`,
    ]);
    expect(
      ofType('AWS::Lambda::EventInvokeConfig')
        .map(([, r]) => r.Properties.Qualifier)
        .sort(byJson),
    ).toEqual(['$LATEST', { 'Fn::Select': [7, { 'Fn::Split': [':', { Ref: aliasId('worker') }] }] }].sort(byJson));
  });

  it('schedules made before the alias (each keeps the target it was created with) still run, with the same retries and failure queue', () => {
    const [statement] = (
      resources[logicalId(s.stack, s.stack.schedules.role.node.findChild('DefaultPolicy'))]!.Properties.PolicyDocument
        .Statement as { Action: string; Resource: unknown }[]
    ).filter((st) => st.Action === 'lambda:InvokeFunction');
    expect([statement!.Resource].flat().sort(byJson)).toEqual(
      [{ Ref: aliasId(WORKER_ENTRY_NAME) }, { 'Fn::GetAtt': [fnId(WORKER_ENTRY_NAME), 'Arn'] }].sort(byJson),
    );
    const configs = ofType('AWS::Lambda::EventInvokeConfig').map(([, r]) => r.Properties);
    expect(configs).toHaveLength(2);
    const { Qualifier: _alias, ...viaAlias } = configs.find((c) => c.Qualifier !== '$LATEST')!;
    const { Qualifier: _latest, ...unqualified } = configs.find((c) => c.Qualifier === '$LATEST')!;
    expect(unqualified).toEqual(viaAlias);
  });

  it('the HTTP API integrates, and may invoke, each group through its alias', () => {
    const integrations = ofType('AWS::ApiGatewayV2::Integration').map(([, r]) => r.Properties.IntegrationUri);
    expect(integrations.sort(byJson)).toEqual(
      routeGroups()
        .map((g) => ({ Ref: aliasId(g) }))
        .sort(byJson),
    );
    const permissions = ofType('AWS::Lambda::Permission').map(([, r]) => r.Properties.FunctionName);
    expect(permissions.sort(byJson)).toEqual(
      routeGroups()
        .map((g) => ({ Ref: aliasId(g) }))
        .sort(byJson),
    );
  });

  it("every consumer of the worker names its alias: the job queue's mapping, the async jobs, the schedules", () => {
    const worker = { Ref: aliasId(WORKER_ENTRY_NAME) };
    const [[, mapping]] = ofType('AWS::Lambda::EventSourceMapping') as [[string, Resource]];
    expect(JSON.stringify(mapping.Properties.FunctionName)).toContain(JSON.stringify(worker));
    expect(JSON.stringify(mapping.Properties.FunctionName)).toContain(`":${LIVE_ALIAS_NAME}"`);
    for (const group of ['articles', 'images']) expect(s.environmentOf(group).WORKER_FUNCTION_NAME).toEqual(worker);
    expect(s.environmentOf('schedule').SCHEDULE_TARGET_ARN).toEqual(worker);
    // Every lambda:InvokeFunction grant of the stack (the API functions', the scheduler role's) is on that alias
    // (the scheduler role's also on the function itself, for the schedules made before: next test).
    // Not the backfill function's grant to invoke itself (its runs continue so, table-backfills.ts).
    const backfillsFn = JSON.stringify({
      'Fn::GetAtt': [logicalId(s.stack, s.stack.backfills.function.function), 'Arn'],
    });
    const invokeResources = ofType('AWS::IAM::Policy').flatMap(([, r]) =>
      (r.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((st) => [st.Action].flat().includes('lambda:InvokeFunction'))
        .map((st) => [st.Resource].flat())
        .filter((resources) => !resources.some((x) => JSON.stringify(x) === backfillsFn)),
    );
    expect(invokeResources).toHaveLength(3);
    for (const resources of invokeResources) expect(resources).toContainEqual(worker);
  });
});

describe('CodeDeploy: a deployment group per function, rolled back by its alarms', () => {
  it('one Lambda application, one deployment group per function, one service role for them all', () => {
    const [[applicationId, application]] = ofType('AWS::CodeDeploy::Application') as [[string, Resource]];
    expect(application.Properties).toEqual({ ComputePlatform: 'Lambda' });
    const groups = ofType('AWS::CodeDeploy::DeploymentGroup');
    expect(groups).toHaveLength(names().length);
    const roleId = logicalId(s.stack, s.stack.deployments.role);
    for (const [, group] of groups) {
      expect(group.Properties.ApplicationName).toEqual({ Ref: applicationId });
      expect(group.Properties.ServiceRoleArn).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
      expect(group.Properties.DeploymentStyle).toEqual({
        DeploymentOption: 'WITH_TRAFFIC_CONTROL',
        DeploymentType: 'BLUE_GREEN',
      });
    }
    const role = resources[roleId]!;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'codedeploy.amazonaws.com' } },
    ]);
    expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toContain(
      ':iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited',
    );
  });

  it.each(names())(
    "%s: CodeDeploy updates the alias, rolling back on failure, on a stop and on the function's alarms",
    (name) => {
      const groupId = logicalId(s.stack, s.stack.deployments.groups.get(name)!);
      const alias = resources[aliasId(name)]!;
      expect(alias.UpdatePolicy).toEqual({
        CodeDeployLambdaAliasUpdate: {
          ApplicationName: { Ref: logicalId(s.stack, s.stack.deployments.application) },
          DeploymentGroupName: { Ref: groupId },
        },
      });
      const group = resources[groupId]!.Properties;
      expect(group.AutoRollbackConfiguration.Enabled).toBe(true);
      expect([...group.AutoRollbackConfiguration.Events].sort()).toEqual(
        ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM', 'DEPLOYMENT_STOP_ON_REQUEST'].sort(),
      );
      const liveErrors = logicalId(s.stack, s.stack.alarms.functions.get(name)!.liveErrors);
      const api5xx = logicalId(s.stack, s.stack.alarms.apiServerErrorsRollback);
      expect(group.AlarmConfiguration).toEqual({
        Enabled: true,
        Alarms: (name === WORKER_ENTRY_NAME ? [liveErrors] : [liveErrors, api5xx]).map((id) => ({ Name: { Ref: id } })),
      });
    },
  );

  it.each(names())("%s: the rollback alarm on its alias's errors (dimension Resource <function>:live)", (name) => {
    const alarm = resources[logicalId(s.stack, s.stack.alarms.functions.get(name)!.liveErrors)]!.Properties;
    expect(alarm).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [
        { Name: 'FunctionName', Value: { Ref: fnId(name) } },
        { Name: 'Resource', Value: { 'Fn::Join': ['', [{ Ref: fnId(name) }, `:${LIVE_ALIAS_NAME}`]] } },
      ],
      ...rollbackShape,
    });
  });

  it("the API's rollback alarm: its 5xx answers over one-minute periods", () => {
    const alarm = resources[logicalId(s.stack, s.stack.alarms.apiServerErrorsRollback)]!.Properties;
    expect(alarm).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: logicalId(s.stack, s.stack.http.api) } }],
      ...rollbackShape,
    });
  });

  it('the rollback alarms: errors in 2 of the last 5 minutes, missing data not breaching', () => {
    expect(ROLLBACK_ALARM_DEFAULTS.period.toSeconds()).toBe(60);
    expect(ROLLBACK_ALARM_DEFAULTS).toMatchObject({ threshold: 1, datapointsToAlarm: 2, evaluationPeriods: 5 });
  });
});

describe('how traffic moves, and termination protection: production or not', () => {
  const variant = (context: Record<string, unknown>) => {
    const { app, stack } = testApp({ context });
    const template = Template.fromStack(stack);
    const configs = new Set(
      Object.values(template.findResources('AWS::CodeDeploy::DeploymentGroup')).map(
        (g) => (g as Resource).Properties.DeploymentConfigName,
      ),
    );
    expect(configs.size).toBe(1);
    return {
      config: [...configs][0] as string,
      // What the CDK CLI deploys the stack with.
      terminationProtection: app.synth().getStackByName(stack.stackName).terminationProtection,
    };
  };
  const alarmEmail = 'ops@example.com';

  it('the default (unstaged) stack: all at once, no termination protection', () => {
    expect(variant({})).toEqual({ config: 'CodeDeployDefault.LambdaAllAtOnce', terminationProtection: false });
  });

  it('stage dev: all at once, no termination protection', () => {
    expect(variant({ stage: 'dev', alarmEmail })).toEqual({
      config: 'CodeDeployDefault.LambdaAllAtOnce',
      terminationProtection: false,
    });
  });

  it('stage prod: a canary (10% for 5 minutes), termination protection', () => {
    expect(variant({ stage: 'prod', alarmEmail })).toEqual({
      config: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
      terminationProtection: true,
    });
  });

  it('the production context value decides either way', () => {
    expect(variant({ production: 'true' })).toEqual({
      config: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
      terminationProtection: true,
    });
    expect(variant({ stage: 'prod', alarmEmail, production: false })).toEqual({
      config: 'CodeDeployDefault.LambdaAllAtOnce',
      terminationProtection: false,
    });
  });

  it('the deploymentConfig context value picks another configuration; an unknown one fails synthesis', () => {
    expect(variant({ stage: 'prod', alarmEmail, deploymentConfig: 'Linear10PercentEvery1Minute' })).toEqual({
      config: 'CodeDeployDefault.LambdaLinear10PercentEvery1Minute',
      terminationProtection: true,
    });
    expect(() => testApp({ context: { deploymentConfig: 'Canary50Percent' } })).toThrow(
      /deploymentConfig must be one of AllAtOnce, Canary10Percent5Minutes, .*, not "Canary50Percent"/,
    );
    // Each name is CodeDeploy's own without its prefix.
    for (const [key, config] of Object.entries(DEPLOYMENT_CONFIGS)) {
      expect(s.stack.resolve(config.deploymentConfigName)).toBe(`CodeDeployDefault.Lambda${key}`);
    }
  });
});

const rollbackShape = {
  Statistic: 'Sum',
  Period: 60,
  Threshold: 1,
  DatapointsToAlarm: 2,
  EvaluationPeriods: 5,
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
  TreatMissingData: 'notBreaching',
};
const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
