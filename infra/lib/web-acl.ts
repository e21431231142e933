import { CfnRule, Fn, Stack, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { routes } from '@app/shared/api';

/**
 * Per-client limits of the distribution's web ACL: requests per client IP address in a sliding
 * window of RATE_WINDOW_SECONDS; a client over a limit gets 429 until its rate falls below it.
 * The API stage's own throttle (infra/lib/http-api.ts) is one bucket shared by every client.
 */
export const RATE_LIMITS = {
  /** Sign-in and registration: password guessing and account creation. */
  auth: 100,
  /** Everything else under /api/ (a busy editor stays far below it). */
  api: 1000,
} as const;
export const RATE_WINDOW_SECONDS = 300;
/** The routes the tighter `auth` limit covers. */
export const AUTH_RATE_LIMITED_ROUTES = ['auth.login', 'auth.register'] as const;

/** A CLOUDFRONT-scope web ACL exists only in us-east-1 (AWS WAF keeps CloudFront's ACLs there). */
export const WEB_ACL_REGION = 'us-east-1';

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

const pathMatch = (path: string, positionalConstraint: 'EXACTLY' | 'STARTS_WITH'): CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint,
    searchString: path,
    // /API/auth/LOGIN reaches no route, but counting it costs nothing.
    textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
  },
});

const rateRule = (
  name: string,
  priority: number,
  limit: number,
  scope: CfnWebACL.StatementProperty,
): CfnWebACL.RuleProperty => ({
  name,
  priority,
  statement: {
    rateBasedStatement: {
      aggregateKeyType: 'IP',
      limit,
      evaluationWindowSec: RATE_WINDOW_SECONDS,
      scopeDownStatement: scope,
    },
  },
  action: { block: { customResponse: { responseCode: 429 } } },
  visibilityConfig: visibility(name),
});

/**
 * The distribution's web ACL (AWS WAF, CLOUDFRONT scope): two rate-based rules per client IP
 * address (RATE_LIMITS), everything else allowed. CloudFront's web ACLs live in us-east-1 only, so
 * the stack must be deployed there: a stack bound to another region fails at synthesis, and a
 * region-agnostic one (bin/app.ts) carries a template rule that stops the deployment in another
 * region before anything is created, with what to do instead.
 */
export class EdgeWebAcl extends Construct {
  readonly webAcl: CfnWebACL;
  readonly regionRule: CfnRule;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    const advice =
      'deploy it to us-east-1, or give -c webAclArn=<a CLOUDFRONT web ACL made in us-east-1>, or -c waf=false to go without one';
    if (!Token.isUnresolved(stack.region) && stack.region !== WEB_ACL_REGION) {
      throw new Error(
        `The stack creates its CloudFront web ACL, which AWS WAF keeps in ${WEB_ACL_REGION}; the stack is for ${stack.region}: ${advice}.`,
      );
    }

    const authPaths = AUTH_RATE_LIMITED_ROUTES.map((routeId) => {
      const route = routes.find((r) => r.id === routeId);
      if (!route) throw new Error(`No route ${routeId} in shared/src/api/routes.ts for the sign-in rate limit`);
      return route.path.toLowerCase();
    });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description: 'Content publisher: per-client rate limits in front of the API',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('content-publisher'),
      rules: [
        rateRule('auth-per-ip', 0, RATE_LIMITS.auth, {
          orStatement: { statements: authPaths.map((p) => pathMatch(p, 'EXACTLY')) },
        }),
        rateRule('api-per-ip', 1, RATE_LIMITS.api, pathMatch('/api/', 'STARTS_WITH')),
      ],
    });

    this.regionRule = new CfnRule(stack, 'WebAclRegion', {
      assertions: [
        {
          assert: Fn.conditionEquals(stack.region, WEB_ACL_REGION),
          assertDescription: `This stack creates the CloudFront web ACL (AWS WAF), which exists only in ${WEB_ACL_REGION}: ${advice}.`,
        },
      ],
    });
  }

  get arn(): string {
    return this.webAcl.attrArn;
  }
}
