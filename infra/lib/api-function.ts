import { Duration } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { API_FUNCTION_TIMEOUT_S } from '../../functions/src/time-budgets.js';
import { AppFunction, FUNCTION_RUNTIME } from './app-function.js';

/** Lambda settings shared by every API function (and asserted by the tests). */
export const API_FUNCTION_DEFAULTS = {
  ...FUNCTION_RUNTIME,
  memorySize: 1024,
  /**
   * Below API Gateway's 30 s integration limit, so the function answers before the gateway gives up;
   * in-request publishing has a deadline within it (functions/src/time-budgets.ts).
   */
  timeout: Duration.seconds(API_FUNCTION_TIMEOUT_S),
} as const;

/**
 * The route groups whose handlers write the audit trail (functions/src/domain/audit.ts: sign-ins,
 * registrations, logouts, password changes, an admin's activations): their logs are kept a year.
 */
export const AUDITED_ROUTE_GROUPS: readonly string[] = ['auth', 'admin'];
/** How long the audit trail is kept (README, Security). */
export const AUDIT_LOG_RETENTION = RetentionDays.ONE_YEAR;

export interface ApiFunctionProps {
  /** The route group this function serves (`auth`, `admin`, …). */
  group: string;
  /** Absolute path of the group's Lambda entry (`functions/src/lambda/<group>.ts`). */
  entry: string;
  /** The npm workspaces root: bundling runs there, with its package-lock.json. */
  projectRoot: string;
  /** Environment variables the function reads (TABLE_NAME, SESSION_SECRET_ARN, …). */
  environment: Record<string, string>;
}

/**
 * The Lambda function of one route group (see AppFunction): bundle, runtime, own log group and
 * own role; the stack grants what the group needs.
 */
export class ApiFunction extends AppFunction {
  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id, {
      name: props.group,
      description: `Content publisher API: ${props.group} routes`,
      roleDescription: `Content publisher API function for the ${props.group} routes`,
      entry: props.entry,
      projectRoot: props.projectRoot,
      environment: props.environment,
      memorySize: API_FUNCTION_DEFAULTS.memorySize,
      timeout: API_FUNCTION_DEFAULTS.timeout,
      ...(AUDITED_ROUTE_GROUPS.includes(props.group) ? { logRetention: AUDIT_LOG_RETENTION } : {}),
    });
  }
}
