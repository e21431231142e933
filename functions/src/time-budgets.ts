/**
 * How long each function may run and how long each job inside it may take, in one place: the
 * Lambda timeouts (infra/lib/api-function.ts and infra/lib/worker-function.ts read them from here)
 * and the budgets the code enforces, so that every job ends, retries included, before its function
 * is cut off (functions/test/time-budgets.test.ts checks the sums). A function that is cut off
 * runs no `catch` or `finally`: the failure is not recorded, a claim is not released, a person
 * gets a gateway error instead of our message.
 */

/** The API functions: below API Gateway's 30 s integration limit, so the function answers first. */
export const API_FUNCTION_TIMEOUT_S = 25;
/** The worker: AI drafting and image generation take up to a few minutes. */
export const WORKER_FUNCTION_TIMEOUT_S = 300;

/**
 * Time an API request needs besides its outbound calls: DynamoDB reads and writes, the image read
 * from S3, rendering, the answer.
 */
export const API_RESERVE_MS = 5_000;
/** Time a worker job needs besides its AI and mail calls: sharp, S3 writes, DynamoDB. */
export const WORKER_RESERVE_MS = 30_000;

/**
 * Putting one domain event on the bus (EventBridge PutEvents, functions/src/domain/automation-events.ts):
 * given up after this, the failure logged and counted.
 */
export const EVENT_BUS_TIMEOUT_MS = 1_500;
/** The automation webhook of an event emitted outside a publish (a worker job): its adapter's own timeout. */
export const EVENT_WEBHOOK_TIMEOUT_MS = 5_000;
/** One event emitted by a worker job: the bus and the webhook at once. */
export const EVENT_EMIT_BUDGET_MS = Math.max(EVENT_BUS_TIMEOUT_MS, EVENT_WEBHOOK_TIMEOUT_MS);
/**
 * Publishing in the request (PublishingService): every outbound call of one publish (WordPress
 * media upload and post, LinkedIn image upload, status polls and post)
 * shares this deadline; each call gets what is left of it, at most its own timeout. Its domain events
 * are not sent in the request: they are written with the article (the outbox,
 * functions/src/adapters/dynamo/event-outbox.ts) and delivered from there.
 */
export const PUBLISH_DEADLINE_MS = API_FUNCTION_TIMEOUT_S * 1000 - API_RESERVE_MS;

/**
 * A publish claim older than this is from an attempt that was cut off and may be taken over. It
 * must outlive the longest request that can hold one (the API function's timeout), so a live
 * publish is never doubled; a publish that timed out keeps its claim until then, so the platform
 * has finished the request it may still be working on before the retry looks for the post.
 */
export const PUBLISH_CLAIM_STALE_MS = 60_000;

/** One OpenAI text call (drafting). */
export const AI_TEXT_TIMEOUT_MS = 120_000;
/** A drafting call and its one retry together (the retry gets what is left, at most AI_TEXT_TIMEOUT_MS). */
export const AI_TEXT_BUDGET_MS = 180_000;
/** A GPT edit runs inside the API request: this long, and never retried. */
export const AI_EDIT_TIMEOUT_MS = 18_000;
/** One OpenAI image call. */
export const AI_IMAGE_TIMEOUT_MS = 180_000;
/** An image call and its one retry together. */
export const AI_IMAGE_BUDGET_MS = 240_000;

/** Sending one approval e-mail through Gmail, the access-token refresh and its retries included. */
export const MAIL_SEND_BUDGET_MS = 30_000;

/** The longest each job can take, retries included, and the function it runs in. */
export const JOB_WORST_CASES = [
  {
    job: 'publish (Publish now, approval link)',
    ms: PUBLISH_DEADLINE_MS + API_RESERVE_MS,
    functionTimeoutS: API_FUNCTION_TIMEOUT_S,
  },
  { job: 'GPT edit', ms: AI_EDIT_TIMEOUT_MS + API_RESERVE_MS, functionTimeoutS: API_FUNCTION_TIMEOUT_S },
  // Both versions are drafted in parallel (ArticleService.generateContent).
  {
    job: 'drafting (generate-content; ArticleDrafted)',
    ms: AI_TEXT_BUDGET_MS + EVENT_EMIT_BUDGET_MS + WORKER_RESERVE_MS,
    functionTimeoutS: WORKER_FUNCTION_TIMEOUT_S,
  },
  {
    job: 'image (generate-image)',
    ms: AI_IMAGE_BUDGET_MS + WORKER_RESERVE_MS,
    functionTimeoutS: WORKER_FUNCTION_TIMEOUT_S,
  },
  {
    job: 'scheduled run (generate-and-notify: drafting, then the approval e-mail; ArticleDrafted, then ApprovalRequested or ScheduleMissed)',
    ms: AI_TEXT_BUDGET_MS + MAIL_SEND_BUDGET_MS + 2 * EVENT_EMIT_BUDGET_MS + WORKER_RESERVE_MS,
    functionTimeoutS: WORKER_FUNCTION_TIMEOUT_S,
  },
] as const;

/**
 * The backfills a deployment runs (functions/src/jobs/table-backfills.ts, infra/lib/table-backfills.ts).
 * CloudFormation waits this long for the custom resource's answer (its ServiceTimeout, at most an hour).
 */
export const BACKFILL_SERVICE_TIMEOUT_S = 3_600;
/** Its function: Lambda's longest; a longer run goes on in another invocation. */
export const BACKFILL_FUNCTION_TIMEOUT_S = 900;
/** No step starts later than this before the function's end: a step is one page and its corrections. */
export const BACKFILL_STEP_RESERVE_MS = 120_000;
/**
 * A deployment's run answers FAILED when its backfills have not finished this long after it started,
 * before CloudFormation's own timeout (which says only that it timed out).
 */
export const BACKFILL_DEPLOY_LIMIT_MS = 50 * 60_000;
/** An index that is not ACTIVE this long after the run started fails it (DynamoDB may still be building it). */
export const BACKFILL_INDEX_WAIT_MS = 40 * 60_000;
