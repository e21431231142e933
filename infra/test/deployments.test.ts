import { beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '@app/shared/api';
import { LIVE_ALIAS_NAME } from '../lib/app-function.js';
import type { ContentPublisherStack } from '../lib/content-publisher-stack.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';
import { logicalId, synthesizeDefaultStack, type DefaultStack, type Resource } from './helpers.js';

const names = () => [...routeGroups(), WORKER_ENTRY_NAME];
const appFunction = (stack: ContentPublisherStack, name: string) =>
  name === WORKER_ENTRY_NAME ? stack.worker : stack.functions.get(name)!;

let s: DefaultStack;
let resources: Record<string, Resource>;
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

  it('a version per function and no other: 12 route groups and the worker', () => {
    expect(ofType('AWS::Lambda::Version')).toHaveLength(names().length);
    expect(ofType('AWS::Lambda::Alias')).toHaveLength(names().length);
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
    expect(offenders).toEqual([]);
    for (const [, r] of ofType('AWS::Lambda::EventInvokeConfig')) {
      expect(r.Properties.Qualifier).toEqual({ 'Fn::Select': [7, { 'Fn::Split': [':', { Ref: aliasId('worker') }] }] });
    }
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
    // Every lambda:InvokeFunction grant of the stack (the API functions', the scheduler role's) is on that alias.
    const invokeResources = ofType('AWS::IAM::Policy').flatMap(([, r]) =>
      (r.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((st) => [st.Action].flat().includes('lambda:InvokeFunction'))
        .map((st) => st.Resource),
    );
    expect(invokeResources).toHaveLength(3);
    for (const resource of invokeResources) expect(resource).toEqual(worker);
  });
});

const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
