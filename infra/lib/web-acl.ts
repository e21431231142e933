import { ArnFormat, CfnRule, Fn, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
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

/**
 * AWS managed rule groups the `wafManagedRules` context value adds after the rate limits: the common
 * rule set (OWASP-style checks of the URI, query, headers and cookies) and known bad inputs (Log4j,
 * Java deserialization, …). The common set's rules that inspect the body count instead of blocking:
 * a body here is the user's own article (Markdown that may quote HTML or a URL, longer than the set's
 * 8 KB), which the functions validate and sanitize themselves (README, Security); the counts show in
 * the WAF log.
 */
export const MANAGED_RULE_GROUPS = [
  {
    name: 'AWSManagedRulesCommonRuleSet',
    countOnly: [
      'SizeRestrictions_BODY',
      'CrossSiteScripting_BODY',
      'GenericRFI_BODY',
      'GenericLFI_BODY',
      'EC2MetaDataSSRF_BODY',
    ],
  },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', countOnly: [] },
] as const;

/** Headers the WAF log never shows: the session cookie and any credential. */
export const WAF_LOG_REDACTED_HEADERS = ['cookie', 'authorization'] as const;
/** How long the WAF log (blocked and counted requests only) is kept. */
export const WAF_LOG_RETENTION = RetentionDays.THREE_MONTHS;

export interface EdgeWebAclProps {
  /** Add MANAGED_RULE_GROUPS (the `wafManagedRules` context value; default off). */
  managedRules?: boolean;
}

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
 * address (RATE_LIMITS), optionally AWS's managed rule groups (MANAGED_RULE_GROUPS), everything else
 * allowed; the requests it blocks or counts are logged to CloudWatch Logs (`aws-waf-logs-<stack>`, the
 * prefix AWS WAF requires), cookies and credentials redacted. CloudFront's web ACLs live in us-east-1 only, so
 * the stack must be deployed there: a stack bound to another region fails at synthesis, and a
 * region-agnostic one (bin/app.ts) carries a template rule that stops the deployment in another
 * region before anything is created, with what to do instead.
 */
export class EdgeWebAcl extends Construct {
  readonly webAcl: CfnWebACL;
  readonly regionRule: CfnRule;
  readonly logGroup: LogGroup;
  readonly logging: CfnLoggingConfiguration;

  constructor(scope: Construct, id: string, props: EdgeWebAclProps = {}) {
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

    const managed: CfnWebACL.RuleProperty[] = props.managedRules
      ? MANAGED_RULE_GROUPS.map((group, i) => ({
          name: group.name,
          priority: 2 + i,
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: group.name,
              ...(group.countOnly.length
                ? { ruleActionOverrides: group.countOnly.map((name) => ({ name, actionToUse: { count: {} } })) }
                : {}),
            },
          },
          overrideAction: { none: {} },
          visibilityConfig: visibility(group.name),
        }))
      : [];

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
        ...managed,
      ],
    });

    const logGroupName = `aws-waf-logs-${stack.stackName}`;
    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName,
      retention: WAF_LOG_RETENTION,
      // Its name is fixed (AWS WAF wants the prefix): a log group kept after `cdk destroy` would block
      // creating the stack again. It holds only blocked and counted requests.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.logging = new CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      // AWS WAF wants the log group's ARN without the `:*` that logGroupArn ends with.
      logDestinationConfigs: [
        stack.formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      redactedFields: WAF_LOG_REDACTED_HEADERS.map((name) => ({ singleHeader: { Name: name } })),
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [
          {
            Behavior: 'KEEP',
            Requirement: 'MEETS_ANY',
            Conditions: [{ ActionCondition: { Action: 'BLOCK' } }, { ActionCondition: { Action: 'COUNT' } }],
          },
        ],
      },
    });
    this.logging.node.addDependency(this.logGroup);

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
