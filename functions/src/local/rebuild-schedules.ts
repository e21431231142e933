/**
 * Makes every scheduled run again from the table, for a deployed stack whose schedule group was lost or emptied
 * (docs/operations.md, Rebuilding the schedules): the stack output RebuildSchedulesCommand is the whole command,
 *
 *   TABLE_NAME=<table> AWS_REGION=<region> SCHEDULE_GROUP_NAME=<group> SCHEDULE_TARGET_ARN=<worker ARN> \
 *   SCHEDULER_ROLE_ARN=<scheduler role ARN> SCHEDULE_DLQ_ARN=<job failure queue ARN> npm run rebuild-schedules [-- --from <ISO time>]
 *
 * with the operator's AWS credentials (dynamodb:Query and dynamodb:BatchGetItem on the table and its GSI1,
 * scheduler:CreateSchedule and scheduler:UpdateSchedule in the group, iam:PassRole of the scheduler role). It
 * remakes the runs from now on, or from `--from` (when the group was lost: runs since then fire a minute later,
 * and those whose e-mail went out send nothing). Idempotent and safe while the app runs
 * (domain/rebuild-schedules.ts). The local stack needs none of it: its timers are re-armed from the table at
 * every start.
 */
import { EventBridgeScheduler } from '../adapters/aws/eventbridge-scheduler.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { createDocumentClient } from '../adapters/dynamo/client.js';
import { DynamoUserStore } from '../adapters/dynamo/user-store.js';
import { loadConfig } from '../config.js';
import { rebuildSchedules } from '../domain/rebuild-schedules.js';

const env = process.env;
const missing = ['SCHEDULE_GROUP_NAME', 'SCHEDULE_TARGET_ARN', 'SCHEDULER_ROLE_ARN', 'SCHEDULE_DLQ_ARN'].filter(
  (name) => !env[name],
);
if (missing.length) {
  console.error(
    `Set ${missing.join(', ')}: the stack output RebuildSchedulesCommand is the whole command (docs/operations.md). ` +
      'Locally there is nothing to rebuild: the local stack re-arms its schedules at every start.',
  );
  process.exit(2);
}
const fromArg = process.argv.indexOf('--from');
const from = fromArg >= 0 ? new Date(process.argv[fromArg + 1] ?? '') : new Date();
if (Number.isNaN(from.getTime())) {
  console.error('--from takes an ISO time, e.g. --from 2026-11-20T09:00:00Z');
  process.exit(2);
}

const config = loadConfig(env);
const db = createDocumentClient(config);
try {
  const scheduler = new EventBridgeScheduler((sdk) => new sdk.SchedulerClient({ region: config.region }), {
    groupName: env.SCHEDULE_GROUP_NAME!,
    targetArn: env.SCHEDULE_TARGET_ARN!,
    roleArn: env.SCHEDULER_ROLE_ARN!,
    deadLetterArn: env.SCHEDULE_DLQ_ARN!,
  });
  const users = new DynamoUserStore(db, config.tableName);
  const result = await rebuildSchedules(
    {
      userIds: async () => (await users.list()).map((user) => user.id),
      articles: new DynamoArticleStore(db, config.tableName),
      scheduler,
      onRun: (run, error) => {
        if (error) console.error(`${run.articleId} ${run.platform} ${run.scheduledFor}: ${(error as Error).message}`);
      },
    },
    from,
  );
  console.log(
    `${env.SCHEDULE_GROUP_NAME}: ${result.users} users, ${result.scheduled} runs from ${from.toISOString()} on ` +
      `scheduled${result.failed ? `, ${result.failed} failed (run it again)` : ''}`,
  );
  if (result.failed) process.exitCode = 1;
} finally {
  db.destroy();
}
