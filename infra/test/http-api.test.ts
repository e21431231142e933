import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routeGroup, routeGroups, routes } from '@app/shared/api';
import { API_THROTTLE_DEFAULTS } from '../lib/http-api.js';
import { logicalId, only, synthesizeDefaultStack, testApp, type Resource } from './helpers.js';

const { stack, template, aliasIds } = synthesizeDefaultStack();

describe('HTTP API', () => {
  const routeResources = () =>
    Object.values(template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Resource>);

  it('is an HTTP API', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
  });

  it('has exactly one route per route-table entry, method and path as written there', () => {
    const keys = routeResources().map((r) => r.Properties.RouteKey as string);
    expect(keys.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(new Set(keys).size).toBe(routes.length);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, routeGroup(r)] as const))(
    '%s is served by the %s function (Lambda proxy, payload 2.0)',
    (routeKey, group) => {
      const route = routeResources().find((r) => r.Properties.RouteKey === routeKey)!;
      const target = route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
      expect(target['Fn::Join'][1][0]).toBe('integrations/');
      const integration = template.findResources('AWS::ApiGatewayV2::Integration')[
        target['Fn::Join'][1][1].Ref
      ] as Resource;
      expect(integration.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        // The group's live alias (its Ref is its ARN), so that a deployment's traffic shift covers the API.
        IntegrationUri: { Ref: aliasIds.get(group) },
      });
    },
  );

  it("lets API Gateway invoke each function's live alias, once per function", () => {
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>);
    expect(permissions).toHaveLength(routeGroups().length);
    for (const id of aliasIds.values()) {
      expect(permissions.filter((p) => JSON.stringify(p.Properties.FunctionName) === `{"Ref":"${id}"}`)).toHaveLength(
        1,
      );
    }
    for (const p of permissions) expect(p.Properties.Principal).toBe('apigateway.amazonaws.com');
  });

  it('has an auto-deployed $default stage with JSON access logs and throttling', () => {
    const [, stage] = only(template.findResources('AWS::ApiGatewayV2::Stage') as Record<string, Resource>);
    expect(stage.Properties).toMatchObject({ StageName: '$default', AutoDeploy: true });
    expect(stage.Properties.AccessLogSettings.DestinationArn).toEqual({
      'Fn::GetAtt': [logicalId(stack, stack.http.accessLogs), 'Arn'],
    });
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format as string) as Record<string, string>;
    expect(format.requestId).toBe('$context.requestId');
    expect(format.status).toBe('$context.status');
    expect(JSON.stringify(format)).not.toMatch(/cookie|authorization|querystring/i);
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: API_THROTTLE_DEFAULTS.rateLimit,
      ThrottlingBurstLimit: API_THROTTLE_DEFAULTS.burstLimit,
    });
  });

  it('the stage throttle comes from the apiThrottleRate and apiThrottleBurst context values; bad values fail synthesis', () => {
    const { stack: throttled } = testApp({ context: { apiThrottleRate: '25', apiThrottleBurst: 50 } });
    const [, stage] = only(
      Template.fromStack(throttled).findResources('AWS::ApiGatewayV2::Stage') as Record<string, Resource>,
    );
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 25, ThrottlingBurstLimit: 50 });
    expect(() => testApp({ context: { apiThrottleRate: 'fast' } })).toThrow(
      /apiThrottleRate must be a positive number, not "fast"/,
    );
    expect(() => testApp({ context: { apiThrottleBurst: '7.5' } })).toThrow(
      /apiThrottleBurst must be a positive whole number/,
    );
  });
});
