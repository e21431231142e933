import { LINKEDIN_API_VERSION } from './channels/linkedin/version.js';
import { JOB_LIMITS, type JobLimitPolicy } from './domain/job-limits.js';
import { parseRunRetryDelays } from './domain/run-retries.js';

/** Every setting comes from the environment so that tests and deployments can point anywhere. */
export interface Config {
  tableName: string;
  region: string;
  dynamoEndpoint?: string;
  s3Endpoint?: string;
  /** Local: the secret the embedded store (functions/src/local/s3.ts) checks requests against; set by the local stack. */
  s3LocalSecret?: string;
  imagesBucket: string;
  publicUrl: string;
  sessionSecret?: string;
  sessionSecretArn?: string;
  sessionTtlSeconds: number;
  allowPrivateUrls: boolean;
  /** Base64 32-byte key of the local encrypted SecretStore; unset in AWS (Secrets Manager). */
  localSecretsKey?: string;
  secretsPrefix: string;
  /** The worker Lambda for async jobs; unset locally (jobs run in-process). */
  workerFunctionName?: string;
  /** The SQS queue of bulk jobs (a spreadsheet import's drafting); unset locally (they go to the job queue). */
  bulkJobQueueUrl?: string;
  /** Whether PUBLIC_URL was set explicitly (else the public origin comes from the request in AWS). */
  publicUrlFromEnv: boolean;
  linkedinApiUrl: string;
  linkedinOAuthUrl: string;
  /** The LinkedIn-Version header (LINKEDIN_API_VERSION, YYYYMM; the stack sets it from the linkedinApiVersion context value). */
  linkedinApiVersion: string;
  googleApiUrl?: string;
  googleOAuthUrl?: string;
  /** The deployment's Google OAuth client (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET), used when a user has none of their own. */
  googleClientId?: string;
  googleClientSecret?: string;
  /** Local only: where mail goes when Gmail is not configured (one .eml per message). */
  outboxDir?: string;
  /** AWS: the secret CloudFront sends as x-origin-verify; the API refuses requests without it (unset locally). */
  originSecretArn?: string;
  /**
   * The one-time code that claims the first (admin) account: SETUP_CODE as it is, or the Secrets
   * Manager secret SETUP_CODE_SECRET_ARN (the stack generates it). Either guards the first
   * registration; with neither (a laptop) the first account becomes the admin. (An admin e-mail
   * address that could claim it without the code is gone: naming an address proves nobody owns it.)
   */
  setupCode?: string;
  setupCodeSecretArn?: string;
  /** AWS: the EventBridge bus the domain events go to (set by the stack on the functions that emit). */
  eventBusName?: string;
  /** Local: the file the domain events are appended to as JSON lines (the local stack: `$DATA_DIR/events.jsonl`). */
  eventsFile?: string;
  /** Per-user limits on drafting, image and upload calls (domain/job-limits.ts; LIMIT_* to change them). */
  jobLimits: JobLimitPolicy;
  /** The back-off of a failed scheduled run, in seconds (domain/run-retries.ts; RUN_RETRY_DELAYS to change it). */
  runRetryDelaysS: readonly number[];
}

/** A whole number of at least 1 from the environment, else the default (a typo must not turn a limit off). */
function limit(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value?.trim() && Number.isInteger(n) && n >= 1 ? n : fallback;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT ?? '3000';
  return {
    tableName: env.TABLE_NAME ?? 'content-publisher',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    s3Endpoint: env.S3_ENDPOINT || undefined,
    s3LocalSecret: env.S3_LOCAL_SECRET || undefined,
    imagesBucket: env.IMAGES_BUCKET ?? 'content-publisher-images',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    sessionSecret: env.SESSION_SECRET || undefined,
    sessionSecretArn: env.SESSION_SECRET_ARN || undefined,
    sessionTtlSeconds: Number(env.SESSION_TTL_SECONDS ?? 7 * 24 * 3600),
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS === '1',
    localSecretsKey: env.LOCAL_SECRETS_KEY || undefined,
    secretsPrefix: env.SECRETS_PREFIX ?? 'content-publisher/',
    workerFunctionName: env.WORKER_FUNCTION_NAME || undefined,
    bulkJobQueueUrl: env.BULK_JOB_QUEUE_URL || undefined,
    publicUrlFromEnv: Boolean(env.PUBLIC_URL),
    linkedinApiUrl: (env.LINKEDIN_API_URL || 'https://api.linkedin.com').replace(/\/+$/, ''),
    linkedinOAuthUrl: (env.LINKEDIN_OAUTH_URL || 'https://www.linkedin.com/oauth/v2').replace(/\/+$/, ''),
    linkedinApiVersion: env.LINKEDIN_API_VERSION?.trim() || LINKEDIN_API_VERSION,
    googleApiUrl: env.GOOGLE_API_URL || undefined,
    googleOAuthUrl: env.GOOGLE_OAUTH_URL || undefined,
    googleClientId: env.GOOGLE_CLIENT_ID?.trim() || undefined,
    googleClientSecret: env.GOOGLE_CLIENT_SECRET?.trim() || undefined,
    outboxDir: env.OUTBOX_DIR || undefined,
    originSecretArn: env.ORIGIN_SECRET_ARN || undefined,
    setupCode: env.SETUP_CODE?.trim() || undefined,
    setupCodeSecretArn: env.SETUP_CODE_SECRET_ARN || undefined,
    eventBusName: env.EVENT_BUS_NAME || undefined,
    eventsFile: env.EVENTS_FILE || undefined,
    jobLimits: {
      inFlight: limit(env.LIMIT_JOBS_IN_FLIGHT, JOB_LIMITS.inFlight),
      perHour: {
        draft: limit(env.LIMIT_DRAFTS_PER_HOUR, JOB_LIMITS.perHour.draft),
        image: limit(env.LIMIT_IMAGES_PER_HOUR, JOB_LIMITS.perHour.image),
        upload: limit(env.LIMIT_UPLOADS_PER_HOUR, JOB_LIMITS.perHour.upload),
      },
    },
    runRetryDelaysS: parseRunRetryDelays(env.RUN_RETRY_DELAYS),
  };
}
