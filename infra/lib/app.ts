import { App, Validations, type AppProps } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AI_CONTEXT_ENV, type AiSettings } from './capabilities.js';
import { ContentPublisherStack, type ContentPublisherStackProps } from './content-publisher-stack.js';
import { BASE_STACK_NAME, parseStage, stageNames } from './stage.js';

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
  const stack = new ContentPublisherStack(app, stackName, {
    description:
      'Content publisher: CloudFront, S3, HTTP API, Lambda, DynamoDB, Secrets Manager, EventBridge Scheduler' +
      (stage ? ` (stage ${stage})` : ''),
    stage,
    // Optional context (cdk.json or `-c key=value`); none of them needs an AWS lookup.
    publicUrl: contextString(app, 'publicUrl'),
    domainName: contextString(app, 'domainName'),
    certificateArn: contextString(app, 'certificateArn'),
    webAclArn: contextString(app, 'webAclArn'),
    // Optional: who is e-mailed (SNS) when a scheduled run lands in the dead-letter queue.
    alarmEmail: contextString(app, 'alarmEmail'),
    // Per-client rate limits (AWS WAF) in front of the distribution: on unless `-c waf=false`.
    waf: contextFlag(app, 'waf'),
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
