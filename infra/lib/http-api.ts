import { Fn, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { routeGroup, routes, type RouteDef } from '@app/shared/api';

/** Fields of the stage's JSON access log (no cookies, headers or query strings: they can hold secrets). */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
} as const;

/** The stage throttle: requests per second and burst shared by every client (the apiThrottleRate and apiThrottleBurst context values). */
export const API_THROTTLE_DEFAULTS = { rateLimit: 100, burstLimit: 200 } as const;

export interface ApiThrottle {
  rateLimit: number;
  burstLimit: number;
}

export interface HttpApiRoutesProps {
  /**
   * The function serving each route group (keys: `routeGroup(route)`): its live alias (app-function.ts), so
   * that a deployment's traffic shift covers the API's requests and the invoke permission names the alias.
   */
  functions: ReadonlyMap<string, IFunction>;
  /** The stage throttle (default API_THROTTLE_DEFAULTS). */
  throttle?: Partial<ApiThrottle>;
  /** The routes to create: the route table by default. */
  routes?: readonly RouteDef[];
}

/**
 * The API Gateway HTTP API: exactly one route per route-table entry (method and path as written
 * there), each integrated (payload v2) with the function of its group, on a `$default` stage with
 * JSON access logs and throttling.
 */
export class HttpApiRoutes extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  readonly routes: HttpRoute[] = [];

  constructor(scope: Construct, id: string, props: HttpApiRoutesProps) {
    super(scope, id);

    this.api = new HttpApi(this, 'Api', {
      description: 'Content publisher API (reached through CloudFront under /api/*)',
      // The stage is created below, with access logging.
      createDefaultStage: false,
    });

    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: {
        rateLimit: props.throttle?.rateLimit ?? API_THROTTLE_DEFAULTS.rateLimit,
        burstLimit: props.throttle?.burstLimit ?? API_THROTTLE_DEFAULTS.burstLimit,
      },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    // One integration per group; one invoke permission per function for this API (rather than
    // one per route) keeps each function's resource policy small as routes are added.
    const integrations = new Map<string, HttpLambdaIntegration>();
    const integrationFor = (group: string): HttpLambdaIntegration => {
      let integration = integrations.get(group);
      if (!integration) {
        const fn = props.functions.get(group);
        if (!fn) throw new Error(`No API function for route group "${group}"`);
        integration = new HttpLambdaIntegration(`${group}-integration`, fn, { scopePermissionToRoute: false });
        integrations.set(group, integration);
      }
      return integration;
    };

    for (const route of props.routes ?? routes) {
      this.routes.push(
        new HttpRoute(this, `Route-${route.id}`, {
          httpApi: this.api,
          routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
          integration: integrationFor(routeGroup(route)),
        }),
      );
    }

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authentication is the HttpOnly session cookie (a signed JWT), checked inside the functions by middleware from ' +
        "each route's `access` in the route table, which also re-reads the user on every request so deactivation takes " +
        'effect at once. Register, login and logout are public by design.',
    });
  }

  /** The host name of the API's execute-api endpoint (the CloudFront origin). */
  get domainName(): string {
    return `${this.api.apiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
  }

  /** The API's base URL (the `$default` stage is served at the root). */
  get url(): string {
    return Fn.join('', [this.api.apiEndpoint, '/']);
  }
}
