import { App, Validations, type AppProps } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import {
  AI_CONTEXT_ENV,
  ContentPublisherStack,
  type AiSettings,
  type ContentPublisherStackProps,
} from './content-publisher-stack.js';

export const STACK_NAME = 'ContentPublisher';

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

/** Builds the CDK app: the stack from context values, checked by cdk-nag (AwsSolutions). */
export function buildApp(options: BuildAppOptions = {}): { app: App; stack: ContentPublisherStack } {
  const app = new App(options.appProps);
  const stack = new ContentPublisherStack(app, STACK_NAME, {
    description: 'Content publisher: CloudFront, S3, HTTP API, Lambda, DynamoDB, Secrets Manager, EventBridge Scheduler',
    // Optional context (cdk.json or `-c key=value`); none of them needs an AWS lookup.
    publicUrl: contextString(app, 'publicUrl'),
    domainName: contextString(app, 'domainName'),
    certificateArn: contextString(app, 'certificateArn'),
    webAclArn: contextString(app, 'webAclArn'),
    // Optional: who is e-mailed (SNS) when a scheduled run lands in the dead-letter queue.
    alarmEmail: contextString(app, 'alarmEmail'),
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
