/**
 * Stages: one account and region can hold several deployments of the app (`-c stage=dev`,
 * `-c stage=prod`) that share nothing. The stage names the stack, and through it every name the
 * stack gives or CDK generates (the schedule group `<stack>-schedules`; the CloudFront
 * response-headers policy, origin access control and functions, whose generated names start with
 * the stack's construct path), the per-user secrets prefix the functions' IAM policies are scoped
 * to, and the functions' metrics namespace. Without a stage the names are the ones the app had
 * before stages existed, so an existing deployment is updated in place, not replaced.
 */

/** The stack's name without a stage (and the start of every staged one). */
export const BASE_STACK_NAME = 'ContentPublisher';

/** The per-user secrets prefix without a stage (functions/src/config.ts has the same default). */
export const BASE_USER_SECRETS_PREFIX = 'content-publisher/';

/**
 * A stage: lower-case letters, digits and inner hyphens, starting with a letter, at most 16
 * characters. It goes into the stack name ([A-Za-z][A-Za-z0-9-]*), the schedule group name
 * (at most 64) and secret names, so it must be valid in all of them.
 */
export const STAGE_PATTERN = /^[a-z](?:[a-z0-9-]{0,14}[a-z0-9])?$/;

export interface StageNames {
  /** The stage, or undefined for the unstaged (original) deployment. */
  stage?: string;
  /** `ContentPublisher` or `ContentPublisher-<stage>`. */
  stackName: string;
  /**
   * `content-publisher/` or `content-publisher-<stage>/`: the functions' SECRETS_PREFIX and the only
   * names their Secrets Manager grants cover. No prefix is the start of another (each ends with
   * `/`, which a stage cannot contain), so no stage's grant reaches another stage's secrets.
   */
  userSecretsPrefix: string;
  /** The CloudWatch namespace of the functions' own (EMF) metrics: the stack name. */
  metricsNamespace: string;
}

/** The stage a context value names: undefined when absent or blank; a clear error when invalid. */
export function parseStage(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  if (text === '') return undefined;
  if (!STAGE_PATTERN.test(text)) {
    throw new Error(
      `The context value stage must be 1 to 16 lower-case letters, digits or inner hyphens, starting with a letter ` +
        `(e.g. dev, prod, team-a), not "${text}"`,
    );
  }
  return text;
}

/** Every stage-dependent name (see StageNames). */
export function stageNames(stage?: string): StageNames {
  if (stage !== undefined) parseStage(stage);
  const stackName = stage ? `${BASE_STACK_NAME}-${stage}` : BASE_STACK_NAME;
  return {
    stage,
    stackName,
    userSecretsPrefix: stage ? `${BASE_USER_SECRETS_PREFIX.replace(/\/$/, '')}-${stage}/` : BASE_USER_SECRETS_PREFIX,
    metricsNamespace: stackName,
  };
}

/** The stage that is production unless the `production` context value says otherwise. */
export const PRODUCTION_STAGE = 'prod';

/**
 * Whether a deployment serves real users: the `production` context value when given, else whether the
 * stage is PRODUCTION_STAGE. The unstaged deployment is not production by default (it is the quick
 * try-out and the default dev stack); one that serves users sets `production: true`. Production turns on
 * the stack's termination protection and the canary deployments (deployment.ts).
 */
export function isProduction(stage: string | undefined, production: boolean | undefined): boolean {
  return production ?? stage === PRODUCTION_STAGE;
}

/** Where the certificate of a CloudFront custom domain must be (ACM certificates for CloudFront live there). */
export const CLOUDFRONT_CERTIFICATE_REGION = 'us-east-1';

/**
 * The custom domain takes both values or neither: a domain without a certificate (or the reverse)
 * would otherwise deploy silently on the *.cloudfront.net name. A certificate ARN of another region
 * is refused too.
 */
export function checkCustomDomain(domainName: string | undefined, certificateArn: string | undefined): void {
  if (domainName && !certificateArn) {
    throw new Error(
      `domainName "${domainName}" needs certificateArn too: the ARN of an ACM certificate for that name in ` +
        `${CLOUDFRONT_CERTIFICATE_REGION} (CloudFront takes its certificates from there). Give both context values, or neither.`,
    );
  }
  if (certificateArn && !domainName) {
    throw new Error(
      'certificateArn is given without domainName: give the custom domain the certificate is for as domainName too, or neither.',
    );
  }
  const region = certificateArn?.match(/^arn:[^:]+:acm:([^:]*):/)?.[1];
  if (region !== undefined && region !== CLOUDFRONT_CERTIFICATE_REGION) {
    throw new Error(
      `certificateArn is in ${region}, but CloudFront uses ACM certificates from ${CLOUDFRONT_CERTIFICATE_REGION} only: ` +
        `request or import the certificate for ${domainName} there.`,
    );
  }
}
