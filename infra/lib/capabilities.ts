/**
 * What each capability of a function grants and which environment it sets. FUNCTION_ACCESS
 * (content-publisher-stack.ts) says which function has which; applyCapabilities grants them.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import { Grant, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ApiFunction } from './api-function.js';
import type { AppFunction } from './app-function.js';
import type { BulkJobs } from './bulk-jobs.js';
import { SCHEDULE_MANAGE_ACTIONS, SCHEDULE_RETRY_ACTIONS, type Schedules } from './schedules.js';
import type { StageNames } from './stage.js';
import type { WorkerFunction } from './worker-function.js';

/**
 * What a function may do beyond writing its own logs and reading/writing the table items (which
 * every function does) and reading the session secret (which every API function does):
 * - `userSecrets:read`: GetSecretValue on the per-user secrets (the user's own OpenAI key);
 * - `userSecrets:write`: also create (tagged with the owner), update and delete them (the Settings page);
 * - `ai`: calls OpenAI with the user's key: `userSecrets:read` plus the optional AI settings;
 * - `jobs:enqueue`: invokes the worker's live alias asynchronously (WORKER_FUNCTION_NAME: the alias's ARN);
 * - `jobs:bulk`: sends jobs to the bulk job queue (BULK_JOB_QUEUE_URL), which the worker drains at a
 *   bounded concurrency (a spreadsheet import's drafting);
 * - `images:read` / `images:write`: GetObject / PutObject on the generated images; a reader may also
 *   list the images' prefix, so that S3 answers a missing image 404, not 403 (s3-object-store.ts);
 * - `images:delete`: DeleteObject on the images (an article keeps its newest image only);
 * - `images:upload`: signs the browser's presigned POST into the uploads prefix (the signer's role must
 *   itself be allowed PutObject there) and reads, lists and deletes what arrives there, nothing else;
 * - `schedules:manage`: creates, moves and deletes the one-off schedules of the stack's schedule
 *   group (EventBridge Scheduler) and passes them the scheduler role, nothing else (SCHEDULE_GROUP_NAME,
 *   SCHEDULE_TARGET_ARN, SCHEDULER_ROLE_ARN, SCHEDULE_DLQ_ARN: without all four the code would fall
 *   back to in-process timers);
 * - `schedules:retry`: creates one-off schedules in the stack's schedule group, nothing else (no update, no
 *   delete), and passes them the scheduler role: the next attempt of a scheduled run that failed
 *   (functions/src/domain/run-retries.ts); the variables of `schedules:manage` but SCHEDULE_TARGET_ARN (the
 *   worker is the target: it reads its own ARN from its invocation);
 * - `approvalLinks:sign`: signs approval links with the session key (read; API functions already
 *   have it) and builds them on the public URL (PUBLIC_URL: the publicUrl context value, else the
 *   distribution's URL), for code that runs outside a request;
 * - `firstAdmin:guard`: reads the one-time setup code that claims the first (admin) account
 *   (SETUP_CODE_SECRET_ARN);
 * - `events:publish`: puts the domain events for automation on the stack's EventBridge bus, that bus
 *   only (events:PutEvents; EVENT_BUS_NAME; functions/src/domain/automation-events.ts).
 */
export type Capability =
  | 'userSecrets:read'
  | 'userSecrets:write'
  | 'ai'
  | 'jobs:enqueue'
  | 'jobs:bulk'
  | 'images:read'
  | 'images:write'
  | 'images:delete'
  | 'images:upload'
  | 'schedules:manage'
  | 'schedules:retry'
  | 'approvalLinks:sign'
  | 'firstAdmin:guard'
  | 'events:publish';

/** Per-user secrets: what `userSecrets:read` and `userSecrets:write` allow. */
export const USER_SECRET_READ_ACTIONS = ['secretsmanager:GetSecretValue'] as const;
export const USER_SECRET_WRITE_ACTIONS = [
  'secretsmanager:CreateSecret',
  // CreateSecret with tags (owner=<userId>) also needs TagResource.
  'secretsmanager:TagResource',
  'secretsmanager:PutSecretValue',
] as const;
/** `userSecrets:write` on the one-per-key secrets of before only (oldUserSecretsArn): no function may delete a user's secret. */
export const OLD_USER_SECRET_ACTIONS = ['secretsmanager:DeleteSecret'] as const;

/** Key prefix of the generated images in the images bucket (`users/<userId>/articles/…`). */
export const IMAGES_KEY_PREFIX = 'users/';
/** Key prefix of the browser's raw uploads (`uploads/<userId>/<articleId>/<random>`; functions/src/domain/images.ts). */
export const UPLOADS_KEY_PREFIX = 'uploads/';
/** What `images:upload` may do in the uploads prefix. */
export const UPLOAD_ACTIONS = ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'] as const;

/** Optional AI settings (context value → environment variable of the functions with `ai`). */
export const AI_CONTEXT_ENV = {
  openaiBaseUrl: 'OPENAI_BASE_URL',
  textModel: 'TEXT_MODEL',
  imageModel: 'IMAGE_MODEL',
} as const;
export type AiSettings = Partial<Record<keyof typeof AI_CONTEXT_ENV, string>>;

/** What the capabilities grant access to: the stack's resources (ContentPublisherStack has them all). */
export interface CapabilityResources {
  readonly stageNames: StageNames;
  /** ARN pattern of the per-user secrets: `…:secret:<userSecretsPrefix>*`. */
  readonly userSecretsArn: string;
  /** ARN pattern of the one-per-key secrets of before, `<userSecretsPrefix><userId>/<key>`. */
  readonly oldUserSecretsArn: string;
  readonly worker: WorkerFunction;
  readonly bulkJobs: BulkJobs;
  readonly imagesBucket: Bucket;
  readonly schedules: Schedules;
  readonly sessionSecret: Secret;
  readonly setupCodeSecret: Secret;
  readonly publicUrl: string;
  /** The bus of the domain events for automation (rules are added to it by the teams that consume them). */
  readonly eventBus: IEventBus;
}

/** The deployment's settings that some capabilities hand to the function. */
export interface CapabilitySettings {
  ai?: AiSettings;
}

interface Target {
  fn: AppFunction;
  stack: CapabilityResources;
  settings: CapabilitySettings;
}

/**
 * A policy statement that more than one capability adds actions to: a function gets it once, with
 * the actions of all its capabilities, and one cdk-nag acknowledgement of its wildcard resource.
 */
interface SharedStatement {
  resourceArn(stack: CapabilityResources): string;
  acknowledgement(stack: CapabilityResources, actions: readonly string[]): { id: string; reason: string };
}

const SHARED_STATEMENTS = {
  userSecrets: {
    resourceArn: (stack) => stack.userSecretsArn,
    acknowledgement: (stack, actions) => {
      const prefix = stack.stageNames.userSecretsPrefix;
      return {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:${prefix}*]`,
        reason:
          `Per-user integration secrets are created at run time as ${prefix}<userId> (one JSON secret per user), so their names ` +
          'are not known at deploy time, and Secrets Manager appends a random suffix to every secret ARN: the policy ' +
          `allows ${actions.join(', ')} on names under the ${prefix} prefix only (the stage's own); the code scopes each name to its owner.`,
      };
    },
  },
  images: {
    resourceArn: (stack) => stack.imagesBucket.arnForObjects(`${IMAGES_KEY_PREFIX}*`),
    acknowledgement: (stack, actions) => {
      const bucket = stack.imagesBucket.node.defaultChild as CfnBucket;
      const bucketId = Stack.of(bucket).resolve(Stack.of(bucket).getLogicalId(bucket)) as string;
      return {
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${IMAGES_KEY_PREFIX}*]`,
        reason:
          `Generated images are stored under ${IMAGES_KEY_PREFIX}<userId>/articles/<articleId>/…, keys made at run time: ` +
          `the policy allows ${actions.join(', ')} on objects under that prefix of the images bucket only (` +
          `${actions.includes('s3:DeleteObject') ? '' : 'no delete; '}readers may list that prefix only, s3:prefix condition).`,
      };
    },
  },
} satisfies Record<string, SharedStatement>;
type SharedStatementName = keyof typeof SHARED_STATEMENTS;

interface CapabilityGrant {
  /** Actions it adds to shared statements. */
  actions?: Partial<Record<SharedStatementName, readonly string[]>>;
  /** Its own grants. */
  grant?(target: Target): void;
  /** The environment variables it sets (undefined values are left out). */
  environment?(target: Target): Record<string, string | undefined>;
}

/** The environment of the article services, which start jobs and also run them (in-process when there is no worker). */
const imagesBucketEnvironment = ({ stack }: Target) => ({ IMAGES_BUCKET: stack.imagesBucket.bucketName });
const secretsEnvironment = ({ stack }: Target) => ({ SECRETS_PREFIX: stack.stageNames.userSecretsPrefix });

/**
 * `actions` on the schedules of the stack's group, and handing the scheduler role to EventBridge Scheduler (the
 * schedules it creates run as that role), nothing else.
 */
function grantSchedules({ fn, stack }: Target, actions: readonly string[]): void {
  const { group, role: schedulerRole, schedulesArn } = stack.schedules;
  Grant.addToPrincipal({ grantee: fn.role, actions: [...actions], resourceArns: [schedulesArn] });
  fn.role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['iam:PassRole'],
      resources: [schedulerRole.roleArn],
      conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    }),
  );
  Validations.of(fn.role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${group.scheduleGroupName}/*]`,
    reason:
      'One-off schedules are created at run time, one per article and platform and one per retry of a failed run ' +
      '(names derived from the article id), so their names are not known at deploy time: the policy allows ' +
      `${actions.join(', ')} on the schedules of the stack's own group (${group.scheduleGroupName}) only, no other ` +
      'group, no read or list.',
  });
}

/** What the scheduler adapter needs (functions/src/wiring/scheduler.ts): without all four it uses local timers. */
const schedulerEnvironment = ({ stack }: Target) => ({
  SCHEDULE_GROUP_NAME: stack.schedules.group.scheduleGroupName,
  // The schedules invoke the worker's live alias, as every other caller does (schedules.ts grants that).
  SCHEDULE_TARGET_ARN: stack.worker.alias.functionArn,
  SCHEDULER_ROLE_ARN: stack.schedules.role.roleArn,
  SCHEDULE_DLQ_ARN: stack.schedules.deadLetterQueue.queueArn,
});

/** Each capability's grants and environment; applied in this order (the order of the policy statements). */
export const CAPABILITIES: Readonly<Record<Capability, CapabilityGrant>> = {
  'userSecrets:read': {
    actions: { userSecrets: USER_SECRET_READ_ACTIONS },
    environment: secretsEnvironment,
  },
  'userSecrets:write': {
    actions: { userSecrets: USER_SECRET_WRITE_ACTIONS },
    grant: ({ fn, stack }) => {
      Grant.addToPrincipal({
        grantee: fn.role,
        actions: [...OLD_USER_SECRET_ACTIONS],
        resourceArns: [stack.oldUserSecretsArn],
      });
      const prefix = stack.stageNames.userSecretsPrefix;
      Validations.of(fn.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:${prefix}*/*]`,
        reason:
          `The one-per-key secrets of before (${prefix}<userId>/<key>) are moved into each user's secret at run time and then ` +
          'scheduled for deletion; their names are not known at deploy time: the policy allows DeleteSecret on those names only ' +
          "(a user's own secret has no second slash), so no function can delete a user's secret.",
      });
    },
    environment: secretsEnvironment,
  },
  ai: {
    actions: { userSecrets: USER_SECRET_READ_ACTIONS },
    environment: (target) => ({
      ...secretsEnvironment(target),
      ...Object.fromEntries(
        Object.entries(AI_CONTEXT_ENV).map(([key, variable]) => [
          variable,
          target.settings.ai?.[key as keyof AiSettings] || undefined,
        ]),
      ),
    }),
  },
  'jobs:enqueue': {
    // The worker's live alias only (what a deployment shifts, deployment.ts): not $LATEST, no other qualifier.
    grant: ({ fn, stack }) =>
      Grant.addToPrincipal({
        grantee: fn.role,
        actions: ['lambda:InvokeFunction'],
        resourceArns: [stack.worker.alias.functionArn],
      }),
    environment: (target) => ({
      // The alias's ARN: Lambda's Invoke takes it as the FunctionName.
      WORKER_FUNCTION_NAME: target.stack.worker.alias.functionArn,
      ...imagesBucketEnvironment(target),
    }),
  },
  'jobs:bulk': {
    // SendMessage (and GetQueueAttributes, GetQueueUrl) on this queue only; SQS-managed encryption needs no KMS grant.
    grant: ({ fn, stack }) => void stack.bulkJobs.queue.grantSendMessages(fn.role),
    environment: (target) => ({
      BULK_JOB_QUEUE_URL: target.stack.bulkJobs.queue.queueUrl,
      ...imagesBucketEnvironment(target),
    }),
  },
  'images:read': {
    actions: { images: ['s3:GetObject'] },
    // Without s3:ListBucket, GetObject on a missing key answers 403 AccessDenied (as for a key it
    // may not read), and the code cannot tell "no image" from a permission error. Listing is
    // allowed under the images' prefix only (the code lists exactly the key it could not read).
    grant: ({ fn, stack }) =>
      void fn.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [stack.imagesBucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': [`${IMAGES_KEY_PREFIX}*`] } },
        }),
      ),
    environment: imagesBucketEnvironment,
  },
  'images:write': {
    actions: { images: ['s3:PutObject'] },
    environment: imagesBucketEnvironment,
  },
  'images:delete': {
    actions: { images: ['s3:DeleteObject'] },
    environment: imagesBucketEnvironment,
  },
  'images:upload': {
    grant: ({ fn, stack }) => {
      const bucket = stack.imagesBucket;
      Grant.addToPrincipal({
        grantee: fn.role,
        actions: [...UPLOAD_ACTIONS],
        resourceArns: [bucket.arnForObjects(`${UPLOADS_KEY_PREFIX}*`)],
      });
      // As for images:read: a missing upload then answers 404, not 403 (s3-object-store.ts).
      fn.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': [`${UPLOADS_KEY_PREFIX}*`] } },
        }),
      );
      const cfn = bucket.node.defaultChild as CfnBucket;
      const bucketId = Stack.of(cfn).resolve(Stack.of(cfn).getLogicalId(cfn)) as string;
      Validations.of(fn.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${UPLOADS_KEY_PREFIX}*]`,
        reason:
          `A browser uploads a user's own image to ${UPLOADS_KEY_PREFIX}<userId>/<articleId>/<random> with a presigned POST ` +
          `this function signs (one key, one type, at most 15 MB, minutes long), keys made at run time: the policy allows ` +
          `${UPLOAD_ACTIONS.join(', ')} under that prefix only, which the bucket expires after a day.`,
      });
    },
    environment: imagesBucketEnvironment,
  },
  'schedules:manage': {
    grant: (target) => grantSchedules(target, SCHEDULE_MANAGE_ACTIONS),
    environment: schedulerEnvironment,
  },
  'schedules:retry': {
    grant: (target) => grantSchedules(target, SCHEDULE_RETRY_ACTIONS),
    // Not SCHEDULE_TARGET_ARN: the target is the worker's own alias, and a function naming its own ARN in its environment
    // is a circular dependency CloudFormation refuses; the worker takes it from its invocation (lambda/worker.ts).
    environment: (target) => ({ ...schedulerEnvironment(target), SCHEDULE_TARGET_ARN: undefined }),
  },
  'firstAdmin:guard': {
    grant: ({ fn, stack }) => void stack.setupCodeSecret.grantRead(fn.role),
    environment: ({ stack }) => ({
      SETUP_CODE_SECRET_ARN: stack.setupCodeSecret.secretArn,
    }),
  },
  'events:publish': {
    // events:PutEvents on the stack's bus ARN only: no other bus, no rule or target management.
    grant: ({ fn, stack }) => void stack.eventBus.grantPutEventsTo(fn.role),
    environment: ({ stack }) => ({ EVENT_BUS_NAME: stack.eventBus.eventBusName }),
  },
  'approvalLinks:sign': {
    grant: ({ fn, stack }) => {
      // API functions read the session key already.
      if (!(fn instanceof ApiFunction)) stack.sessionSecret.grantRead(fn.role);
    },
    environment: ({ stack }) => ({ SESSION_SECRET_ARN: stack.sessionSecret.secretArn, PUBLIC_URL: stack.publicUrl }),
  },
};

/** Grants one function its capabilities (in the order of CAPABILITIES) and sets the environment they need. */
export function applyCapabilities(
  fn: AppFunction,
  access: readonly Capability[],
  stack: CapabilityResources,
  settings: CapabilitySettings,
): void {
  const target: Target = { fn, stack, settings };
  const granted = (Object.keys(CAPABILITIES) as Capability[]).filter((capability) => access.includes(capability));
  const sharedActions = new Map<SharedStatementName, string[]>();
  for (const capability of granted) {
    for (const [name, actions] of Object.entries(CAPABILITIES[capability].actions ?? {}) as [
      SharedStatementName,
      readonly string[],
    ][]) {
      sharedActions.set(name, [...new Set([...(sharedActions.get(name) ?? []), ...actions])]);
    }
  }
  for (const capability of granted) {
    const { actions, grant, environment } = CAPABILITIES[capability];
    // A shared statement comes with the first capability that adds to it.
    for (const name of Object.keys(actions ?? {}) as SharedStatementName[]) {
      const all = sharedActions.get(name);
      if (!all) continue;
      sharedActions.delete(name);
      const statement: SharedStatement = SHARED_STATEMENTS[name];
      Grant.addToPrincipal({ grantee: fn.role, actions: all, resourceArns: [statement.resourceArn(stack)] });
      Validations.of(fn.role).acknowledge(statement.acknowledgement(stack, all));
    }
    grant?.(target);
    for (const [variable, value] of Object.entries(environment?.(target) ?? {})) {
      if (value !== undefined) fn.addEnvironment(variable, value);
    }
  }
}
