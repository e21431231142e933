import { App, Validations, type AppProps } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AI_CONTEXT_ENV, type AiSettings } from './capabilities.js';
import { ContentPublisherStack, type ContentPublisherStackProps } from './content-publisher-stack.js';
import { DEVELOPMENT_DEPLOYMENT_CONFIG, PRODUCTION_DEPLOYMENT_CONFIG, parseDeploymentConfig } from './deployment.js';
import { BASE_STACK_NAME, isProduction, parseStage, stageNames } from './stage.js';

/** The stack's name without a stage context value; `-c stage=<stage>` makes it `ContentPublisher-<stage>` (stage.ts). */
export const STACK_NAME = BASE_STACK_NAME;

export interface BuildAppOptions {
  /** App props (context, outdir, …); under the CDK CLI the context comes from cdk.json. */
  appProps?: AppProps;
  /** Stack props overriding what the context gives. */
  stack?: Omit<ContentPublisherStackProps, 'env'>;
  /** Run cdk-nag's AwsSolutions checks at synthesis (default true). */
  nag?: boolean;
}

const contextString = (app: App, key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/**
 * A yes/no context value: true or false as JSON (cdk.json) or as the strings `-c key=value` gives
 * (true/false, 1/0, yes/no, on/off); undefined when absent.
 */
export const contextFlag = (app: App, key: string): boolean | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off'].includes(text)) return false;
  throw new Error(`The context value ${key} must be true or false, not "${String(value)}"`);
};

/**
 * A positive number context value (JSON number or the string `-c key=value` gives); undefined when
 * absent; `integer` refuses fractions.
 */
export const contextNumber = (app: App, key: string, options: { integer?: boolean } = {}): number | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(number) || number <= 0 || (options.integer && !Number.isInteger(number))) {
    throw new Error(
      `The context value ${key} must be a positive ${options.integer ? 'whole ' : ''}number, not "${String(value)}"`,
    );
  }
  return number;
};

/** Builds the CDK app: the stack from context values, checked by cdk-nag (AwsSolutions). */
export function buildApp(options: BuildAppOptions = {}): { app: App; stack: ContentPublisherStack } {
  const app = new App(options.appProps);
  if (contextString(app, 'adminEmail')) {
    // It let whoever registered with that address first claim the admin account, which proves nothing.
    throw new Error(
      'The adminEmail context value is no longer supported: remove it, and claim the first (admin) account with the ' +
        'one-time setup code (the SetupCodeCommand output).',
    );
  }
  // Optional: a stage of its own (dev, prod, …) deploys beside the others in one account and region.
  const stage = options.stack?.stage ?? parseStage(app.node.tryGetContext('stage'));
  const { stackName } = stageNames(stage);
  // A production stage (stage prod, or `-c production=true`) cannot be deleted by accident and deploys by canary.
  const production = isProduction(stage, contextFlag(app, 'production'));
  const stack = new ContentPublisherStack(app, stackName, {
    description:
      'Content publisher: CloudFront, S3, HTTP API, Lambda, DynamoDB, Secrets Manager, EventBridge Scheduler' +
      (stage ? ` (stage ${stage})` : ''),
    stage,
    terminationProtection: production,
    // How a new version reaches the users (deployment.ts); `-c deploymentConfig=<name>` overrides the stage's default.
    deploymentConfig:
      parseDeploymentConfig(contextString(app, 'deploymentConfig')) ??
      (production ? PRODUCTION_DEPLOYMENT_CONFIG : DEVELOPMENT_DEPLOYMENT_CONFIG),
    // Optional context (cdk.json or `-c key=value`); none of them needs an AWS lookup.
    publicUrl: contextString(app, 'publicUrl'),
    domainName: contextString(app, 'domainName'),
    certificateArn: contextString(app, 'certificateArn'),
    webAclArn: contextString(app, 'webAclArn'),
    // Who every alarm notifies: an address (SNS e-mail) or a topic of yours; a named stage needs one.
    alarmEmail: contextString(app, 'alarmEmail'),
    alarmTopicArn: contextString(app, 'alarmTopicArn'),
    // Optional: an existing (restored) table instead of creating one (docs/operations.md, Restore).
    tableName: contextString(app, 'tableName'),
    // With it, that table's stream (the domain events are delivered from it; docs/operations.md, Restore).
    tableStreamArn: contextString(app, 'tableStreamArn'),
    // Days the event bus's archive keeps the domain events for a replay (default 90).
    eventArchiveDays: contextNumber(app, 'eventArchiveDays', { integer: true }),
    // Per-client rate limits (AWS WAF) in front of the distribution: on unless `-c waf=false`.
    waf: contextFlag(app, 'waf'),
    // AWS's managed rule groups (common, known bad inputs) in that web ACL: off unless `-c wafManagedRules=true`.
    wafManagedRules: contextFlag(app, 'wafManagedRules'),
    // The HTTP API stage throttle (requests per second, burst), shared by every client.
    apiThrottle: {
      rateLimit: contextNumber(app, 'apiThrottleRate'),
      burstLimit: contextNumber(app, 'apiThrottleBurst', { integer: true }),
    },
    // The LinkedIn-Version the functions send (YYYYMM; docs/operations.md, LinkedIn version).
    linkedinApiVersion: contextString(app, 'linkedinApiVersion'),
    // Optional: concurrency reserved for the worker (`-c workerReservedConcurrency=20`); unset, it shares the account's.
    workerReservedConcurrency: contextNumber(app, 'workerReservedConcurrency', { integer: true }),
    // Optional AI settings (OpenAI-compatible endpoint, model names); no API key: users set their own.
    ai: Object.fromEntries(
      Object.keys(AI_CONTEXT_ENV).flatMap((key) => {
        const value = contextString(app, key);
        return value ? [[key, value]] : [];
      }),
    ) as AiSettings,
    ...options.stack,
  });
  if (options.nag ?? true) {
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  }
  return { app, stack };
}
