import { CfnOutput, Validations } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import {
  LambdaApplication,
  LambdaDeploymentConfig,
  LambdaDeploymentGroup,
  type ILambdaDeploymentConfig,
} from 'aws-cdk-lib/aws-codedeploy';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { AppFunction } from './app-function.js';

/**
 * How a new version of the functions reaches the users (the deploymentConfig context value): the
 * names are CodeDeploy's predefined Lambda configurations without their `CodeDeployDefault.Lambda`
 * prefix. A canary moves 10% of the traffic to the new version, waits, then moves the rest; a linear
 * one moves 10% more at every step; all at once moves everything at once.
 */
export const DEPLOYMENT_CONFIGS = {
  AllAtOnce: LambdaDeploymentConfig.ALL_AT_ONCE,
  Canary10Percent5Minutes: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  Canary10Percent10Minutes: LambdaDeploymentConfig.CANARY_10PERCENT_10MINUTES,
  Canary10Percent15Minutes: LambdaDeploymentConfig.CANARY_10PERCENT_15MINUTES,
  Canary10Percent30Minutes: LambdaDeploymentConfig.CANARY_10PERCENT_30MINUTES,
  Linear10PercentEvery1Minute: LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_1MINUTE,
  Linear10PercentEvery2Minutes: LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_2MINUTES,
  Linear10PercentEvery3Minutes: LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_3MINUTES,
  Linear10PercentEvery10Minutes: LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_10MINUTES,
} as const satisfies Record<string, ILambdaDeploymentConfig>;
export type DeploymentConfigName = keyof typeof DEPLOYMENT_CONFIGS;

/**
 * The default of a production stage: a tenth of the traffic tries the new version for five minutes,
 * long enough for the one-minute rollback alarms (alarms.ts) to see it fail, short enough for a deploy.
 */
export const PRODUCTION_DEPLOYMENT_CONFIG: DeploymentConfigName = 'Canary10Percent5Minutes';
/**
 * The default of any other stage: a dev stack has next to no traffic for a canary to sample, and a
 * deploy there should take seconds; it still goes through the same alias and deployment group.
 */
export const DEVELOPMENT_DEPLOYMENT_CONFIG: DeploymentConfigName = 'AllAtOnce';

/** The deploymentConfig context value: one of DEPLOYMENT_CONFIGS' names, undefined when absent; a clear error otherwise. */
export function parseDeploymentConfig(value: string | undefined): DeploymentConfigName | undefined {
  if (value === undefined) return undefined;
  if (Object.hasOwn(DEPLOYMENT_CONFIGS, value)) return value as DeploymentConfigName;
  throw new Error(
    `The context value deploymentConfig must be one of ${Object.keys(DEPLOYMENT_CONFIGS).join(', ')}, not "${value}"`,
  );
}

export interface GradualDeploymentsProps {
  /** Every function of the stack, keyed by route group and `worker`: each has its live alias (app-function.ts). */
  functions: ReadonlyMap<string, AppFunction>;
  /** The alarms that stop a function's deployment and roll it back (alarms.ts, rollback alarms), by the same keys. */
  rollbackAlarms: ReadonlyMap<string, readonly IAlarm[]>;
  /** How traffic moves to a new version (default DEVELOPMENT_DEPLOYMENT_CONFIG). */
  config?: DeploymentConfigName;
}

/**
 * One CodeDeploy deployment group per function: a deployment that publishes a new version of a function
 * does not point its live alias there at once; CodeDeploy moves the alias's traffic over as `config`
 * says, and if one of the function's rollback alarms goes into ALARM meanwhile (or the deployment fails,
 * or someone stops it) it moves every request back to the previous version and fails the stack update,
 * which CloudFormation then rolls back as a whole (docs/operations.md, Deployments).
 */
export class GradualDeployments extends Construct {
  readonly application: LambdaApplication;
  /** The service role CodeDeploy uses for every group (AWS's managed policy for Lambda deployments). */
  readonly role: Role;
  readonly groups = new Map<string, LambdaDeploymentGroup>();
  readonly config: DeploymentConfigName;

  constructor(scope: Construct, id: string, props: GradualDeploymentsProps) {
    super(scope, id);
    this.config = props.config ?? DEVELOPMENT_DEPLOYMENT_CONFIG;
    this.application = new LambdaApplication(this, 'Application');
    // One role for the thirteen groups rather than one each (the construct's default).
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      description: "Content publisher: CodeDeploy shifts the functions' live aliases to new versions",
    });
    for (const [name, fn] of props.functions) {
      const alarms = props.rollbackAlarms.get(name);
      if (!alarms || alarms.length === 0) throw new Error(`No rollback alarm for the "${name}" function`);
      this.groups.set(
        name,
        new LambdaDeploymentGroup(this, name, {
          application: this.application,
          alias: fn.alias,
          deploymentConfig: DEPLOYMENT_CONFIGS[this.config],
          role: this.role,
          alarms: [...alarms],
          autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
        }),
      );
    }
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "AWS's own policy for CodeDeploy Lambda deployments, which the deployment group attaches: reading and updating " +
        'aliases, reading alarm states, invoking CodeDeployHook_* functions only; it moves with what CodeDeploy needs.',
    });
    new CfnOutput(this, 'Name', {
      description:
        "The CodeDeploy application of the functions' deployments: watch, stop or roll back one (docs/operations.md, Deployments)",
      value: this.application.applicationName,
    }).overrideLogicalId('DeploymentApplicationName');
  }
}
