import {
  ArnFormat,
  CfnOutput,
  Duration,
  Lazy,
  RemovalPolicy,
  Stack,
  Token,
  Validations,
  type StackProps,
} from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Grant } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_HEADER } from '../../functions/src/http/client-address.js';
import { routeGroups } from '@app/shared/api';
import { ApiFunction } from './api-function.js';
import { BULK_JOBS_DEFAULTS, BulkJobs } from './bulk-jobs.js';
import type { AppFunction } from './app-function.js';
import { UPLOADS_KEY_PREFIX, applyCapabilities, type AiSettings, type Capability } from './capabilities.js';
import { DataTable, PITR_RECOVERY_DAYS } from './data-table.js';
import { EventDelivery } from './event-delivery.js';
import { GradualDeployments, type DeploymentConfigName } from './deployment.js';
import { LINKEDIN_API_VERSION, parseLinkedInVersion } from '../../functions/src/channels/linkedin/version.js';
import { HttpApiRoutes, type ApiThrottle } from './http-api.js';
import { defaultSpaDistDir, lambdaEntryPath, repoRoot } from './paths.js';
import { rebuildSchedulesCommand, Schedules } from './schedules.js';
import { Site } from './site.js';
import { TableBackfills } from './table-backfills.js';
import { AppAlarms } from './alarms.js';
import { BASE_USER_SECRETS_PREFIX, checkCustomDomain, stageNames, type StageNames } from './stage.js';
import { EdgeWebAcl } from './web-acl.js';
import { WORKER_ENTRY_NAME, WORKER_FUNCTION_DEFAULTS, WorkerFunction } from './worker-function.js';

/** What every function may do with the table: item reads and writes and queries; no Scan, no table admin. */
/**
 * Route groups that never call LinkedIn: the generic channel routes serve only the channels without documented routes
 * of their own (functions/src/http/channels.ts), so their function is not given the LinkedIn-Version.
 */
const GROUPS_WITHOUT_LINKEDIN: ReadonlySet<string> = new Set(['channels']);
const withoutLinkedIn = ({ LINKEDIN_API_VERSION: _unused, ...rest }: Record<string, string>) => rest;

export const TABLE_DATA_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

/**
 * Name prefix of the per-user integration secrets: one JSON secret per user, `<prefix><userId>`,
 * created and read at run time by the functions (SECRETS_PREFIX); their IAM policies allow no other
 * secret name. `<prefix><userId>/<key>` are the one-per-key secrets of before, which the functions
 * move into the user's secret and schedule for deletion (functions/src/domain/settings.ts).
 * This is the unstaged deployment's; a stage has `content-publisher-<stage>/` (stage.ts).
 */
export const USER_SECRETS_PREFIX = BASE_USER_SECRETS_PREFIX;

/**
 * The one place that says what each function needs, from what its code does (a new route group
 * is one line here; synthesis fails for a group without a line); what each capability grants is in
 * capabilities.ts. Keys: the route groups of
 * shared/src/api/routes.ts and `worker`.
 */
export const FUNCTION_ACCESS: Readonly<Record<string, readonly Capability[]>> = {
  /** Registration: the first account is the admin only with the setup code. */
  auth: ['firstAdmin:guard'],
  admin: [],
  /** Saves, lists (masked) and deletes the user's integration keys. */
  settings: ['userSecrets:read', 'userSecrets:write'],
  /** GPT edit runs in the request with the user's key; drafting is a worker job. */
  articles: ['ai', 'jobs:enqueue'],
  /** The dashboard's cards: the owner's summary items and unpublished articles (the table only; a read may prune old counts). */
  dashboard: [],
  /**
   * Starts image jobs, reports their status and serves the stored images; signs the browser's uploads, then
   * checks, crops and stores them, deleting the image they replace.
   */
  images: ['jobs:enqueue', 'images:read', 'images:write', 'images:delete', 'images:upload'],
  /** Integrations: check and store the user's WordPress, LinkedIn and Gmail credentials and tokens; publishing reads the article's image. */
  wordpress: ['userSecrets:read', 'userSecrets:write', 'images:read'],
  linkedin: ['userSecrets:read', 'userSecrets:write', 'images:read'],
  /** The channels of the registry without routes of their own (functions/src/channels/registry.ts): the same. */
  channels: ['userSecrets:read', 'userSecrets:write', 'images:read'],
  email: ['userSecrets:read', 'userSecrets:write'],
  /**
   * Workspaces, members and invitations: an invitation is e-mailed through the workspace's Gmail (its
   * secret; an older per-key secret moves into it on first use, as in the email function).
   */
  workspaces: ['userSecrets:read', 'userSecrets:write'],
  /** Records a platform's time and creates, moves or deletes its one-off schedule (EventBridge Scheduler). */
  schedule: ['schedules:manage'],
  /** Approval links: publish the approved platform with the user's integration secrets and image. */
  approvals: ['userSecrets:read', 'images:read'],
  /**
   * Google Sheets import: stores and forgets the user's read-only Google grant (a per-user secret;
   * the OAuth client is the user's Gmail one), creates the imported articles and sends their
   * drafting jobs to the bulk job queue. (The optional deployment-wide client, GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET, is not wired.)
   */
  sheets: ['userSecrets:read', 'userSecrets:write', 'jobs:bulk'],
  /**
   * Runs the jobs (async invoke, and the bulk job queue through its event source mapping): drafting
   * and image generation with the user's key, storing the images (and deleting the one replaced); and the scheduled runs (generate-and-notify): drafts, then e-mails a signed approval link through the
   * user's Gmail (outbound HTTPS; it never publishes), with the platform's stored image inline.
   * The domain events for automation are written to the table with their changes by whichever function makes
   * them; the worker alone delivers them (the table's stream, event-delivery.ts): `events:publish`.
   * A scheduled run that failed schedules its next attempt (functions/src/domain/run-retries.ts): `schedules:retry`.
   */
  [WORKER_ENTRY_NAME]: [
    'ai',
    'images:read',
    'images:write',
    'images:delete',
    'approvalLinks:sign',
    'events:publish',
    'schedules:retry',
  ],
};

/** Where CloudFront publishes its metrics (and so where its alarm must be). */
export const CLOUDFRONT_METRICS_REGION = 'us-east-1';

/**
 * Who hears of an alarm: a named stage must say (alarmEmail or alarmTopicArn), or it would deploy
 * alarms that notify nobody. The unstaged deployment keeps its old default (alarms visible in the
 * console only), so a first try-out needs no address.
 */
export function checkAlarmTarget(
  props: Pick<ContentPublisherStackProps, 'stage' | 'alarmEmail' | 'alarmTopicArn'>,
): void {
  if (props.alarmEmail && props.alarmTopicArn) {
    throw new Error(
      'Give alarmEmail or alarmTopicArn, not both: alarmEmail makes a topic that e-mails the address, alarmTopicArn uses a topic of yours.',
    );
  }
  if (
    props.alarmTopicArn !== undefined &&
    !/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(props.alarmTopicArn)
  ) {
    throw new Error(
      `alarmTopicArn must be the ARN of an SNS topic (arn:aws:sns:<region>:<account>:<name>), not "${props.alarmTopicArn}"`,
    );
  }
  if (props.stage !== undefined && !props.alarmEmail && !props.alarmTopicArn) {
    throw new Error(
      `The stage "${props.stage}" has no one to tell when an alarm fires: give the context value alarmEmail (an address ` +
        'the stack subscribes to its alarm topic) or alarmTopicArn (an SNS topic of yours), e.g. in cdk.context.json ' +
        '(README, Deploy to AWS).',
    );
  }
}

/** The command that prints the setup code (the SetupCodeCommand output); the CLI does not take the region from the ARN. */
export const setupCodeCommand = (secretArn: string, region: string): string =>
  `aws secretsmanager get-secret-value --secret-id ${secretArn} --region ${region} --query SecretString --output text`;

/** The command that moves the failed jobs back to the job queue (the RedriveFailedJobsCommand output). */
export const redriveCommand = (failureQueueArn: string, jobQueueArn: string, region: string): string =>
  `aws sqs start-message-move-task --source-arn ${failureQueueArn} --destination-arn ${jobQueueArn} --region ${region}`;

export interface ContentPublisherStackProps extends StackProps {
  /**
   * Optional stage (the `stage` context value): the stack must then be named for it
   * (`stageNames(stage).stackName`, as buildApp does); it also picks the per-user secrets prefix.
   */
  stage?: string;
  /** The npm workspaces root (bundling root; entries are functions/src/lambda/<group>.ts under it). */
  projectRoot?: string;
  /** The built SPA to upload (default frontend/dist). */
  spaDistDir?: string;
  /** Public base URL, passed to the functions as PUBLIC_URL (else they use x-forwarded-host). */
  publicUrl?: string;
  /** Optional custom domain and its ACM certificate (us-east-1) for the distribution. */
  domainName?: string;
  certificateArn?: string;
  /** Optional AWS WAF web ACL (CLOUDFRONT scope) for the distribution. */
  webAclArn?: string;
  /**
   * Optional AI settings for the functions that call OpenAI. There is no deployment-wide API key:
   * each user sets their own `openai_api_key` in Settings (a per-user secret).
   */
  ai?: AiSettings;
  /**
   * E-mail address every alarm notifies (through an SNS topic of the stack's). A named stage needs it or
   * alarmTopicArn: synthesis fails without either (alarms nobody hears of are no alarms).
   */
  alarmEmail?: string;
  /** Or an existing SNS topic (ARN) every alarm notifies; its policy must let CloudWatch publish. */
  alarmTopicArn?: string;
  /**
   * An existing table to use instead of creating one (the `tableName` context value): a restored
   * table (docs/operations.md, Restore).
   */
  tableName?: string;
  /** That table's stream ARN (the `tableStreamArn` context value; required with tableName). */
  tableStreamArn?: string;
  /** Days the event bus's archive keeps the domain events (context `eventArchiveDays`; default 90). */
  eventArchiveDays?: number;
  /** AWS's managed rule groups in the stack's web ACL (default false; web-acl.ts). */
  wafManagedRules?: boolean;
  /** The HTTP API stage throttle (default API_THROTTLE_DEFAULTS, http-api.ts). */
  apiThrottle?: Partial<ApiThrottle>;
  /** The LinkedIn-Version the functions send (YYYYMM; default LINKEDIN_API_VERSION; docs/operations.md). */
  linkedinApiVersion?: string;
  /**
   * The stack's own web ACL with per-client rate limits on the distribution (default true; the
   * stack must then be deployed to us-east-1, see EdgeWebAcl). Unused when webAclArn is given.
   */
  waf?: boolean;
  /**
   * Optional concurrency reserved for the worker (WorkerFunctionProps.reservedConcurrency); at least the
   * bulk queue's maximum concurrency, which it would otherwise throttle.
   */
  workerReservedConcurrency?: number;
  /** How a deployment moves each function's live alias to its new version (default AllAtOnce; deployment.ts). */
  deploymentConfig?: DeploymentConfigName;
}

/**
 * The whole application: CloudFront → S3 (SPA) and → HTTP API → one Lambda per route group →
 * one DynamoDB table, with the session-signing secret and the per-user secrets in Secrets
 * Manager, a worker Lambda for long jobs and a private bucket for the generated images.
 */
export class ContentPublisherStack extends Stack {
  readonly data: DataTable;
  readonly sessionSecret: Secret;
  /** The value CloudFront adds to API requests as ORIGIN_SECRET_HEADER; the API functions refuse requests without it. */
  readonly originSecret: Secret;
  /** The one-time code that claims the first (admin) account (its command is the SetupCodeCommand output). */
  readonly setupCodeSecret: Secret;
  /** The stack's web ACL (absent with waf=false or a webAclArn of its own). */
  readonly webAcl?: EdgeWebAcl;
  /** The API function of each route group. */
  readonly functions = new Map<string, ApiFunction>();
  readonly worker: WorkerFunction;
  readonly http: HttpApiRoutes;
  readonly site: Site;
  readonly imagesBucket: Bucket;
  /** EventBridge Scheduler: the schedule group and its role (target: the worker; dead letters: the job failure queue). */
  readonly schedules: Schedules;
  /** The SQS queue of bulk jobs (a spreadsheet import's drafting), drained by the worker; its DLQ and alarm. */
  readonly bulkJobs: BulkJobs;
  /** The app's public base URL: the publicUrl/domainName context value, else the distribution's URL. */
  readonly publicUrl: string;
  /** ARN pattern of the per-user secrets: `…:secret:<userSecretsPrefix>*`. */
  readonly userSecretsArn: string;
  /** ARN pattern of the one-per-key secrets of before, `<userSecretsPrefix><userId>/<key>`: the prefix, `*`, a slash, `*`. */
  readonly oldUserSecretsArn: string;
  /** The stage's names: per-user secrets prefix, metrics namespace (stage.ts). */
  readonly stageNames: StageNames;
  /** Alarms on every function's Errors and Throttles and on the API's 5xx answers (alarms.ts). */
  readonly alarms: AppAlarms;
  /** A CodeDeploy deployment group per function: new versions reach the live aliases gradually (deployment.ts). */
  readonly deployments: GradualDeployments;
  /**
   * The bus of the domain events for automation (README, Events for automation): the functions that
   * emit may only put events on it; teams add their own rules to it without touching the stack.
   */
  readonly eventBus: EventBus;
  /** The table's backfills, run after every deployment of new code (table-backfills.ts). */
  readonly backfills: TableBackfills;
  /** The events' delivery from the table's stream (the worker), its failure queue and alarms, and the bus's archive. */
  readonly eventDelivery: EventDelivery;

  constructor(scope: Construct, id: string, props: ContentPublisherStackProps = {}) {
    super(scope, id, props);
    const projectRoot = props.projectRoot ?? repoRoot;
    this.stageNames = stageNames(props.stage);
    if (props.stage !== undefined && this.stackName !== this.stageNames.stackName) {
      // Generated account-wide names (schedule group, CloudFront policies) come from the stack name.
      throw new Error(
        `The stack of stage "${props.stage}" must be named ${this.stageNames.stackName}, not ${this.stackName}`,
      );
    }
    checkCustomDomain(props.domainName, props.certificateArn);
    checkAlarmTarget(props);
    const linkedinApiVersion = parseLinkedInVersion(
      props.linkedinApiVersion ?? LINKEDIN_API_VERSION,
      'linkedinApiVersion',
    );

    this.data = new DataTable(this, 'Data', {
      existingTableName: props.tableName,
      existingTableStreamArn: props.tableStreamArn,
    });
    this.backfills = new TableBackfills(this, 'Backfills', { data: this.data, projectRoot });

    this.sessionSecret = new Secret(this, 'SessionSecret', {
      description: 'Content publisher: key that signs session tokens (HS256)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.sessionSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'This is the key that signs session cookies, not a credential of another service: rotating it signs every ' +
        'user out, so it is rotated on purpose (replace the secret value) rather than on a schedule.',
    });

    // Only CloudFront sends this value (a custom origin header that CloudFormation resolves from the
    // secret at deployment): the execute-api endpoint called directly is refused by the functions.
    this.originSecret = new Secret(this, 'OriginSecret', {
      description: `Content publisher: value of the ${ORIGIN_SECRET_HEADER} header CloudFront adds to API requests`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(this.originSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFront gets this value when CloudFormation updates the distribution (a dynamic reference), so a scheduled ' +
        'rotation would lock CloudFront out; it is rotated on purpose, by a deployment that replaces the secret.',
    });
    this.setupCodeSecret = new Secret(this, 'SetupCode', {
      description: 'Content publisher: one-time code that claims the first (admin) account',
      generateSecretString: { passwordLength: 24, excludePunctuation: true },
    });
    Validations.of(this.setupCodeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A one-time code read by the person deploying (the SetupCodeCommand output) and used once to claim the first ' +
        'admin account; after that it guards nothing, so there is nothing to rotate.',
    });

    for (const [key, value] of Object.entries({ alarmEmail: props.alarmEmail })) {
      if (value !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
        throw new Error(`${key} must be an e-mail address, not "${value}"`);
      }
    }
    const publicUrl = props.publicUrl ?? (props.domainName ? `https://${props.domainName}` : undefined);
    const apiEnvironment: Record<string, string> = {
      TABLE_NAME: this.data.table.tableName,
      SESSION_SECRET_ARN: this.sessionSecret.secretArn,
      ORIGIN_SECRET_ARN: this.originSecret.secretArn,
      LINKEDIN_API_VERSION: linkedinApiVersion,
      ...(publicUrl ? { PUBLIC_URL: publicUrl.replace(/\/+$/, '') } : {}),
    };

    if (routeGroups().includes(WORKER_ENTRY_NAME)) {
      throw new Error(`"${WORKER_ENTRY_NAME}" is the worker's name: a route group cannot use it`);
    }
    for (const group of routeGroups()) {
      const fn = new ApiFunction(this, `Fn-${group}`, {
        group,
        entry: lambdaEntryPath(projectRoot, group),
        projectRoot,
        environment: GROUPS_WITHOUT_LINKEDIN.has(group) ? withoutLinkedIn(apiEnvironment) : apiEnvironment,
      });
      this.grantTableData(fn);
      this.sessionSecret.grantRead(fn.role);
      this.originSecret.grantRead(fn.role);
      this.functions.set(group, fn);
    }

    const reserved = props.workerReservedConcurrency;
    if (reserved !== undefined && (!Number.isInteger(reserved) || reserved < BULK_JOBS_DEFAULTS.maxConcurrency))
      throw new Error(
        `workerReservedConcurrency must be a whole number of at least ${BULK_JOBS_DEFAULTS.maxConcurrency} ` +
          `(the bulk job queue runs that many workers at once), not "${String(reserved)}"`,
      );
    this.worker = new WorkerFunction(this, 'Fn-worker', {
      entry: lambdaEntryPath(projectRoot, WORKER_ENTRY_NAME),
      projectRoot,
      environment: { TABLE_NAME: this.data.table.tableName, LINKEDIN_API_VERSION: linkedinApiVersion },
      reservedConcurrency: reserved,
    });
    this.grantTableData(this.worker);

    this.http = new HttpApiRoutes(this, 'Http', {
      functions: new Map<string, IFunction>([...this.functions].map(([group, fn]) => [group, fn.alias])),
      throttle: props.apiThrottle,
    });

    if (!props.webAclArn && (props.waf ?? true))
      this.webAcl = new EdgeWebAcl(this, 'Waf', { managedRules: props.wafManagedRules });
    this.site = new Site(this, 'Site', {
      apiDomainName: this.http.domainName,
      spaDistDir: props.spaDistDir ?? defaultSpaDistDir,
      domainName: props.domainName,
      certificate: props.certificateArn
        ? Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn)
        : undefined,
      webAclArn: props.webAclArn ?? this.webAcl?.arn,
      apiOriginHeaders: { [ORIGIN_SECRET_HEADER]: this.originSecret.secretValue.unsafeUnwrap() },
      // The images bucket is made below: its endpoint is filled in at synthesis.
      uploadOrigin: Lazy.string({ produce: () => this.imageUploadOrigin(publicUrl) }),
    });
    this.publicUrl = (publicUrl ?? `https://${this.site.distribution.distributionDomainName}`).replace(/\/+$/, '');

    this.bulkJobs = new BulkJobs(this, 'BulkJobs', {
      worker: this.worker.alias,
      unqualifiedWorker: this.worker.function,
      workerTimeout: WORKER_FUNCTION_DEFAULTS.timeout,
    });
    // Runs the Scheduler could not deliver go to the job failure queue: one redrive for every failed job.
    this.schedules = new Schedules(this, 'Schedules', {
      target: this.worker.alias,
      formerTarget: this.worker.function,
      failures: this.bulkJobs,
      alarmEmail: props.alarmEmail,
      alarmTopicArn: props.alarmTopicArn,
    });

    this.imagesBucket = new Bucket(this, 'ImagesBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.site.logsBucket,
      serverAccessLogsPrefix: 's3/images/',
      // A replaced or deleted image stays restorable as long as the table can be restored to a moment
      // that names it (docs/operations.md, Restore).
      versioned: true,
      lifecycleRules: [
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // A browser's upload is taken (and deleted) within minutes; one never completed goes after a day.
        { id: 'expire-abandoned-uploads', prefix: UPLOADS_KEY_PREFIX, expiration: Duration.days(1) },
        {
          id: 'expire-noncurrent-versions',
          noncurrentVersionExpiration: Duration.days(PITR_RECOVERY_DAYS),
          expiredObjectDeleteMarker: true,
        },
      ],
      // The SPA posts users' own images straight here (a presigned POST, functions/src/domain/images.ts).
      cors: [{ allowedMethods: [HttpMethods.POST], allowedOrigins: [this.publicUrl], maxAge: 3000 }],
      // Users' images, referenced by their articles: never deleted with the stack.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.userSecretsArn = this.formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      // Secrets Manager appends a random suffix (-AbCdEf) to every secret ARN: the trailing * is required.
      resourceName: `${this.stageNames.userSecretsPrefix}*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    // A user's secret has no `/` after the prefix (user ids have none): this matches the old names only.
    this.oldUserSecretsArn = this.formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: `${this.stageNames.userSecretsPrefix}*/*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });

    // Named after the stack, so each stage has its own and a rule can name it.
    this.eventBus = new EventBus(this, 'Events', {
      eventBusName: `${this.stageNames.stackName}-events`,
      description: 'Content publisher: domain events for automation (ArticleDrafted.v1, PublishSucceeded.v1, …)',
    });

    this.eventDelivery = new EventDelivery(this, 'EventDelivery', {
      table: this.data.table,
      worker: this.worker.alias,
      unqualifiedWorker: this.worker.function,
      eventBus: this.eventBus,
      alarmTopic: this.schedules.alarmTopic,
      archiveRetentionDays: props.eventArchiveDays,
    });

    const allFunctions = new Map<string, AppFunction>([...this.functions, [WORKER_ENTRY_NAME, this.worker]]);
    for (const [name, fn] of allFunctions) {
      const access = FUNCTION_ACCESS[name];
      if (!access) {
        throw new Error(
          `No access line for the "${name}" function: add "${name}: [...]" to FUNCTION_ACCESS in infra/lib/content-publisher-stack.ts`,
        );
      }
      applyCapabilities(fn, access, this, { ai: props.ai });
    }

    this.alarms = new AppAlarms(this, 'Alarms', {
      apiFunctions: this.functions,
      worker: this.worker,
      api: this.http.api,
      topic: this.schedules.alarmTopic,
      // As the functions' POWERTOOLS_METRICS_NAMESPACE (app-function.ts).
      metricsNamespace: this.stackName,
      jobQueue: this.bulkJobs.queue,
      failureQueues: [this.bulkJobs.deadLetterQueue],
      scheduleGroup: this.schedules.group,
      // CloudFront's metrics are in us-east-1 only: a stack bound to another region could not alarm on them.
      distribution:
        Token.isUnresolved(this.region) || this.region === CLOUDFRONT_METRICS_REGION
          ? this.site.distribution
          : undefined,
    });
    this.deployments = new GradualDeployments(this, 'Deployments', {
      functions: allFunctions,
      rollbackAlarms: this.alarms.rollback,
      config: props.deploymentConfig,
    });

    new CfnOutput(this, 'DistributionUrl', {
      description: 'The application (SPA and /api) through CloudFront',
      value: `https://${this.site.distribution.distributionDomainName}`,
    });
    new CfnOutput(this, 'ApiUrl', {
      description: 'The HTTP API endpoint (CloudFront forwards /api/* to it)',
      value: this.http.url,
    });
    new CfnOutput(this, 'TableName', { description: 'The DynamoDB table', value: this.data.table.tableName });
    new CfnOutput(this, 'SiteBucketName', {
      description: 'The bucket holding the built SPA',
      value: this.site.bucket.bucketName,
    });
    new CfnOutput(this, 'ImagesBucketName', {
      description: 'The bucket holding the generated images',
      value: this.imagesBucket.bucketName,
    });
    new CfnOutput(this, 'WorkerFunctionName', {
      description: 'The worker Lambda (async jobs)',
      value: this.worker.function.functionName,
    });
    new CfnOutput(this, 'ScheduleGroupName', {
      description: 'The EventBridge Scheduler group of the one-off schedules',
      value: this.schedules.group.scheduleGroupName,
    });
    new CfnOutput(this, 'BulkJobDeadLetterQueueUrl', {
      description:
        'The job failure queue: worker jobs (bulk or directly invoked) that failed on every attempt, and scheduled runs the Scheduler could not deliver (alarmed)',
      value: this.bulkJobs.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'RedriveFailedJobsCommand', {
      description:
        'Runs the failed jobs again, once their cause is fixed: moves them from the failure queue to the job queue',
      value: redriveCommand(this.bulkJobs.deadLetterQueue.queueArn, this.bulkJobs.queue.queueArn, this.region),
    });
    new CfnOutput(this, 'RebuildSchedulesCommand', {
      description:
        'Makes every scheduled run from now on again from the table, when the schedule group was lost (docs/operations.md)',
      value: rebuildSchedulesCommand({
        tableName: this.data.table.tableName,
        region: this.region,
        groupName: this.schedules.group.scheduleGroupName,
        targetArn: this.worker.alias.functionArn,
        roleArn: this.schedules.role.roleArn,
        deadLetterArn: this.schedules.deadLetterQueue.queueArn,
      }),
    });
    new CfnOutput(this, 'EventBusName', {
      description:
        'The EventBridge bus of the domain events for automation: add rules to it (README, Events for automation)',
      value: this.eventBus.eventBusName,
    });
    new CfnOutput(this, 'EventBusArn', {
      description: 'The ARN of that bus',
      value: this.eventBus.eventBusArn,
    });
    new CfnOutput(this, 'DashboardUrl', {
      description:
        "The stage's CloudWatch dashboard: its alarms and the metrics behind them (docs/operations.md, Alarms)",
      value: `https://console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards/dashboard/${this.alarms.dashboard.dashboardName}`,
    });
    new CfnOutput(this, 'SetupCodeCommand', {
      description: 'Prints the one-time setup code that the first registration needs to become the admin',
      value: setupCodeCommand(this.setupCodeSecret.secretArn, this.region),
    });
  }

  /**
   * Where the browser posts an uploaded image: the images bucket's regional endpoint (what the presigned
   * POST names). Without a public URL of its own the site is the distribution's address: the bucket's CORS
   * rule then names the distribution while the distribution's CSP would name the bucket, a cycle that
   * CloudFormation refuses; the CSP then allows the S3 hosts of the stack's region instead (img-src
   * already allows any https: host, so no new way out of the page opens).
   */
  private imageUploadOrigin(publicUrl: string | undefined): string {
    return publicUrl
      ? `https://${this.imagesBucket.bucketRegionalDomainName}`
      : `https://*.s3.${this.region}.${this.urlSuffix}`;
  }

  /** Item reads and writes on the table and its indexes: every function. */
  private grantTableData(fn: AppFunction): void {
    Grant.addToPrincipal({ grantee: fn.role, actions: [...TABLE_DATA_ACTIONS], resourceArns: this.data.resourceArns });
  }
}
