import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  InvalidRequestException,
  ResourceExistsException,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ConflictException as SchedulerConflict,
  ResourceNotFoundException as SchedulerNotFound,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { EventBridgeScheduler, retryScheduleName, scheduleName } from '../src/adapters/aws/eventbridge-scheduler.js';
import { LambdaJobQueue } from '../src/adapters/aws/lambda-job-queue.js';
import { SecretsManagerStore, followingVersionId } from '../src/adapters/aws/secrets-manager-store.js';
import { SqsJobQueue } from '../src/adapters/aws/sqs-job-queue.js';
import { JobsNotQueuedError, type Job } from '../src/domain/ports.js';
import { eachToQueue } from '../src/wiring/jobs.js';

const notFound = () => new ResourceNotFoundException({ message: 'not found', $metadata: {} });

describe('SecretsManagerStore: one secret per owner', () => {
  const sm = mockClient(SecretsManagerClient);
  const store = new SecretsManagerStore(new SecretsManagerClient({ region: 'us-east-1' }), 'content-publisher/');
  beforeEach(() => sm.reset());
  const exists = () =>
    new ResourceExistsException({
      message: "You can't modify an existing version, you can only create new versions.",
      $metadata: {},
    });
  const written = (input: { SecretString?: string }) =>
    JSON.parse(input.SecretString!) as { values: Record<string, string>; write: string };

  it("reads all of the owner's values with one GetSecretValue, and the version they were read at", async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'content-publisher/user-1' }).resolves({
      VersionId: 'v-1',
      SecretString: JSON.stringify({ values: { openai_api_key: 'sk-1', wordpress_app_password: 'pw' }, write: 'w' }),
    });
    expect(await store.read('user-1')).toEqual({
      values: { openai_api_key: 'sk-1', wordpress_app_password: 'pw' },
      version: 'v-1',
    });
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('reads an owner without a secret as no values and no version', async () => {
    sm.on(GetSecretValueCommand).rejects(notFound());
    expect(await store.read('user-1')).toEqual({ values: {}, version: undefined });
  });

  it('refuses a secret of that name that does not hold values, rather than overwrite it', async () => {
    sm.on(GetSecretValueCommand).resolves({ VersionId: 'v-1', SecretString: 'sk-not-json' });
    await expect(store.read('user-1')).rejects.toThrow(
      'The secret content-publisher/user-1 does not hold settings values',
    );
  });

  it('creates the secret, tagged with its owner, on the first write', async () => {
    sm.on(CreateSecretCommand).resolves({});
    const version = await store.write('user-1', { gmail_client_secret: 'shh' }, undefined);
    const input = sm.commandCalls(CreateSecretCommand)[0]!.args[0].input;
    expect(input).toMatchObject({
      Name: 'content-publisher/user-1',
      ClientRequestToken: version,
      Tags: [{ Key: 'owner', Value: 'user-1' }],
    });
    expect(written(input).values).toEqual({ gmail_client_secret: 'shh' });
    expect(sm.commandCalls(PutSecretValueCommand)).toHaveLength(0);
  });

  it('a first write that finds the secret created meanwhile writes nothing (the caller reads again)', async () => {
    sm.on(CreateSecretCommand).rejects(exists());
    expect(await store.write('user-1', { a: '1' }, undefined)).toBeUndefined();
  });

  it('writes the version that follows the one read: the token is derived from it, and each write has its own text', async () => {
    sm.on(PutSecretValueCommand).resolves({});
    const first = await store.write('user-1', { openai_api_key: 'sk-2' }, 'v-1');
    const again = await store.write('user-1', { openai_api_key: 'sk-2' }, 'v-1');
    const [a, b] = sm.commandCalls(PutSecretValueCommand).map((c) => c.args[0].input);
    expect(a).toMatchObject({ SecretId: 'content-publisher/user-1', ClientRequestToken: followingVersionId('v-1') });
    expect(first).toBe(followingVersionId('v-1'));
    expect(again).toBe(first);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(followingVersionId('v-2')).not.toBe(first);
    // Same values, yet different texts: Secrets Manager would take a same-text write as a repeat and make nothing.
    expect(written(a!).values).toEqual(written(b!).values);
    expect(written(a!).write).not.toBe(written(b!).write);
  });

  it('a write whose follower version exists already (another write came first) writes nothing', async () => {
    sm.on(PutSecretValueCommand).rejects(exists());
    expect(await store.write('user-1', { a: '1' }, 'v-1')).toBeUndefined();
  });

  it('reads and schedules for deletion the per-key secrets of before (<prefix><userId>/<key>), a week to recover', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'content-publisher/u/a' }).resolves({ SecretString: 'A' });
    sm.on(GetSecretValueCommand, { SecretId: 'content-publisher/u/b' }).rejects(notFound());
    sm.on(DeleteSecretCommand).rejectsOnce(notFound()).resolves({});
    expect(await store.readLegacy('u', 'a')).toBe('A');
    expect(await store.readLegacy('u', 'b')).toBeUndefined();
    await store.deleteLegacy('u', 'b');
    await store.deleteLegacy('u', 'a');
    expect(sm.commandCalls(DeleteSecretCommand).map((c) => c.args[0].input)).toEqual([
      { SecretId: 'content-publisher/u/b', RecoveryWindowInDays: 7 },
      { SecretId: 'content-publisher/u/a', RecoveryWindowInDays: 7 },
    ]);
  });

  describe('a secret whose deletion is still finishing', () => {
    const pendingDeletion = (verb: string) =>
      new InvalidRequestException({ message: `You can't ${verb} because it was marked for deletion.`, $metadata: {} });
    const quick = new SecretsManagerStore(
      new SecretsManagerClient({ region: 'us-east-1' }),
      'content-publisher/',
      [1, 1, 1],
    );

    it('reads as absent; an old per-key secret deletes as done', async () => {
      sm.on(GetSecretValueCommand).rejects(pendingDeletion('perform this operation on the secret'));
      sm.on(DeleteSecretCommand).rejects(pendingDeletion('perform this operation on the secret'));
      expect(await quick.read('u')).toEqual({ values: {}, version: undefined });
      expect(await quick.readLegacy('u', 'a')).toBeUndefined();
      await expect(quick.deleteLegacy('u', 'a')).resolves.toBeUndefined();
    });

    it('is created again once the name is free, after short waits', async () => {
      sm.on(CreateSecretCommand)
        .rejectsOnce(pendingDeletion('create this secret because a secret with this name is already scheduled for'))
        .rejectsOnce(pendingDeletion('create this secret because a secret with this name is already scheduled for'))
        .resolves({});
      expect(await quick.write('u', { google_sheets_refresh_token: 'tok' }, undefined)).toBeDefined();
      expect(sm.commandCalls(CreateSecretCommand)).toHaveLength(3);
      // One version: the same token on every attempt.
      expect(new Set(sm.commandCalls(CreateSecretCommand).map((c) => c.args[0].input.ClientRequestToken)).size).toBe(1);
    });

    it('gives up with the error after its waits', async () => {
      sm.on(CreateSecretCommand).rejects(
        pendingDeletion('create this secret because a secret with this name is already scheduled for'),
      );
      await expect(quick.write('u', { k: 'v' }, undefined)).rejects.toThrow(/scheduled for/);
      expect(sm.commandCalls(CreateSecretCommand)).toHaveLength(4);
    });
  });

  it('lets other failures through', async () => {
    sm.on(GetSecretValueCommand).rejects(new Error('AccessDenied'));
    await expect(store.read('u')).rejects.toThrow('AccessDenied');
    sm.on(PutSecretValueCommand).rejects(new Error('AccessDenied'));
    await expect(store.write('u', {}, 'v-1')).rejects.toThrow('AccessDenied');
  });
});

describe('LambdaJobQueue', () => {
  it('invokes the worker asynchronously with the job as payload', async () => {
    const lambda = mockClient(LambdaClient);
    lambda.on(InvokeCommand).resolves({ StatusCode: 202 });
    const queue = new LambdaJobQueue((sdk) => new sdk.LambdaClient({ region: 'us-east-1' }), 'worker-fn');
    await queue.enqueue({ type: 'generate-content', userId: 'u', articleId: 'a' });
    const input = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(input.FunctionName).toBe('worker-fn');
    expect(input.InvocationType).toBe('Event');
    expect(JSON.parse(Buffer.from(input.Payload as Uint8Array).toString())).toEqual({
      type: 'generate-content',
      userId: 'u',
      articleId: 'a',
    });
  });
});

describe('SqsJobQueue', () => {
  const sqs = mockClient(SQSClient);
  const url = 'https://sqs.eu-west-1.amazonaws.com/123456789012/bulk-jobs';
  const queue = new SqsJobQueue((sdk) => new sdk.SQSClient({ region: 'eu-west-1' }), url);
  const jobs = (n: number): Job[] =>
    Array.from({ length: n }, (_, i) => ({ type: 'generate-content', userId: 'u1', articleId: `a${i}` }));
  const entries = (list: Job[], ids = list.map((_, i) => i)) =>
    list.map((job, i) => ({ Id: String(ids[i]), MessageBody: JSON.stringify(job) }));
  beforeEach(() => {
    sqs.reset();
  });

  it('sends the jobs as JSON bodies in SendMessageBatch requests of at most 10 entries', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const all = jobs(23);
    await queue.enqueueAll(all);
    const inputs = sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
    expect(inputs).toEqual([
      { QueueUrl: url, Entries: entries(all.slice(0, 10)) },
      { QueueUrl: url, Entries: entries(all.slice(10, 20)) },
      { QueueUrl: url, Entries: entries(all.slice(20)) },
    ]);
    expect(JSON.parse(inputs[0]!.Entries![0]!.MessageBody!)).toEqual({
      type: 'generate-content',
      userId: 'u1',
      articleId: 'a0',
    });
  });

  it('enqueue sends one job as a batch of one; no jobs, no request', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await queue.enqueue(jobs(1)[0]!);
    await queue.enqueueAll([]);
    expect(sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: url, Entries: entries(jobs(1)) },
    ]);
  });

  it('sends the entries SQS reports as failed once more, alone', async () => {
    const all = jobs(5);
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({
        Successful: [],
        Failed: [
          { Id: '1', SenderFault: false, Code: 'InternalError' },
          { Id: '3', SenderFault: false, Code: 'InternalError' },
        ],
      })
      .resolves({ Successful: [], Failed: [] });
    await queue.enqueueAll(all);
    expect(sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: url, Entries: entries(all) },
      { QueueUrl: url, Entries: entries([all[1]!, all[3]!], [1, 3]) },
    ]);
  });

  it('throws JobsNotQueuedError with the jobs still failing after the retry (and those of a refused request); the rest are sent', async () => {
    const all = jobs(25);
    sqs.on(SendMessageBatchCommand).callsFake((input: { Entries: { Id: string; MessageBody: string }[] }) => {
      const first = JSON.parse(input.Entries[0]!.MessageBody) as Job;
      if (first.articleId === 'a10') throw new Error('AccessDenied');
      // In the third batch, entry 2 (a22) always fails.
      const failed = input.Entries.filter((e) => (JSON.parse(e.MessageBody) as Job).articleId === 'a22');
      return {
        Successful: [],
        Failed: failed.map((e) => ({ Id: e.Id, SenderFault: false, Code: 'InternalError', Message: 'try again' })),
      };
    });
    const error = (await queue.enqueueAll(all).catch((e: unknown) => e)) as JobsNotQueuedError;
    expect(error).toBeInstanceOf(JobsNotQueuedError);
    expect(error.total).toBe(25);
    expect(error.jobs.map((j) => j.articleId).sort()).toEqual(
      [...all.slice(10, 20).map((j) => j.articleId), 'a22'].sort(),
    );
    expect(error.message).toBe('11 of 25 jobs could not be queued');
    // 3 batches, plus one retry of a22 (the refused request is not retried by us: the SDK already retries).
    const inputs = sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
    expect(inputs).toHaveLength(4);
    expect(inputs).toContainEqual({ QueueUrl: url, Entries: entries([all[22]!], [2]) });
  });
});

describe('eachToQueue (bulk jobs without a bulk queue: locally, or no BULK_JOB_QUEUE_URL)', () => {
  it('hands each job to the ordinary queue and reports those it refused', async () => {
    const seen: string[] = [];
    const bulk = eachToQueue({
      enqueue: async (job) => {
        if (job.articleId === 'x') throw new Error('nope');
        seen.push(job.articleId);
      },
    });
    const list: Job[] = ['a', 'x', 'b'].map((articleId) => ({ type: 'generate-content', userId: 'u', articleId }));
    const error = (await bulk.enqueueAll(list).catch((e: unknown) => e)) as JobsNotQueuedError;
    expect(error).toBeInstanceOf(JobsNotQueuedError);
    expect(error.jobs).toEqual([list[1]]);
    expect(seen.sort()).toEqual(['a', 'b']);
    await expect(bulk.enqueueAll([list[0]!])).resolves.toBeUndefined();
  });
});

describe('EventBridgeScheduler', () => {
  const options = {
    groupName: 'content-publisher',
    targetArn: 'arn:aws:lambda:eu-west-1:123456789012:function:worker',
    roleArn: 'arn:aws:iam::123456789012:role/scheduler',
    deadLetterArn: 'arn:aws:sqs:eu-west-1:123456789012:schedules-dlq',
    now: () => new Date('2026-11-20T00:00:00.000Z'), // a fixed clock: the run below stays in the future
  };
  const run = {
    userId: 'u1',
    articleId: 'mbx1abc2def',
    platform: 'blog' as const,
    scheduledFor: '2026-12-01T08:30:00.000Z',
  };

  it('updates the schedule with the exact definition, the instant in UTC', async () => {
    const scheduler = mockClient(SchedulerClient);
    scheduler.on(UpdateScheduleCommand).resolves({});
    await new EventBridgeScheduler((sdk) => new sdk.SchedulerClient({ region: 'eu-west-1' }), options).schedule(run);
    expect(scheduler.commandCalls(UpdateScheduleCommand)[0]!.args[0].input).toEqual({
      Name: 'article-mbx1abc2def-blog',
      GroupName: 'content-publisher',
      ScheduleExpression: 'at(2026-12-01T08:30:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: options.targetArn,
        RoleArn: options.roleArn,
        Input: JSON.stringify({ type: 'generate-and-notify', ...run }),
        RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 5 },
        DeadLetterConfig: { Arn: options.deadLetterArn },
      },
    });
    expect(scheduler.commandCalls(CreateScheduleCommand)).toHaveLength(0);
  });

  it('creates the schedule when it does not exist (never made, or already fired and deleted)', async () => {
    const scheduler = mockClient(SchedulerClient);
    scheduler
      .on(UpdateScheduleCommand)
      .rejects(new SchedulerNotFound({ message: 'gone', Message: 'gone', $metadata: {} }));
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });
    await new EventBridgeScheduler((sdk) => new sdk.SchedulerClient({ region: 'eu-west-1' }), options).schedule(run);
    expect(scheduler.commandCalls(CreateScheduleCommand)[0]!.args[0].input.ScheduleExpression).toBe(
      'at(2026-12-01T08:30:00)',
    );
  });

  it('is unambiguous in the hour a user zone repeats, and sends "now" a minute ahead (the run keeps its time)', async () => {
    const scheduler = mockClient(SchedulerClient);
    scheduler.on(UpdateScheduleCommand).resolves({});
    const clock = { now: () => new Date('2026-11-01T05:40:10.500Z') };
    const eb = new EventBridgeScheduler((sdk) => new sdk.SchedulerClient({ region: 'eu-west-1' }), {
      ...options,
      ...clock,
    });
    // 01:30 happens twice in New York that night (EDT, then EST): 05:30Z and 06:30Z are two instants.
    await eb.schedule({ ...run, scheduledFor: '2026-11-01T06:30:00.000Z' });
    const now = { ...run, scheduledFor: '2026-11-01T05:40:10.500Z' };
    await eb.schedule(now);
    const [later, immediate] = scheduler.commandCalls(UpdateScheduleCommand).map((c) => c.args[0].input);
    expect([later!.ScheduleExpression, later!.ScheduleExpressionTimezone]).toEqual(['at(2026-11-01T06:30:00)', 'UTC']);
    expect(immediate!.ScheduleExpression).toBe('at(2026-11-01T05:41:10)');
    expect(JSON.parse(immediate!.Target!.Input!).scheduledFor).toBe(now.scheduledFor);
  });

  it('cancels, ignoring a schedule that is already gone', async () => {
    const scheduler = mockClient(SchedulerClient);
    scheduler
      .on(DeleteScheduleCommand)
      .rejects(new SchedulerNotFound({ message: 'gone', Message: 'gone', $metadata: {} }));
    await new EventBridgeScheduler((sdk) => new sdk.SchedulerClient({ region: 'eu-west-1' }), options).cancel(
      'u1',
      'a1',
      'linkedin',
    );
    expect(scheduler.commandCalls(DeleteScheduleCommand)[0]!.args[0].input).toEqual({
      Name: 'article-a1-linkedin',
      GroupName: 'content-publisher',
    });
  });

  it('schedules a retry of a failed run as a schedule of its own (CreateSchedule only), the job carrying its attempt', async () => {
    const scheduler = mockClient(SchedulerClient);
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });
    await new EventBridgeScheduler(() => new SchedulerClient({ region: 'eu-west-1' }), options).retry(
      run,
      3,
      new Date('2026-12-01T08:45:30.000Z'),
    );
    expect(scheduler.commandCalls(UpdateScheduleCommand)).toHaveLength(0);
    const input = scheduler.commandCalls(CreateScheduleCommand)[0]!.args[0].input;
    expect(input).toEqual({
      Name: retryScheduleName(run, 3),
      GroupName: 'content-publisher',
      ScheduleExpression: 'at(2026-12-01T08:45:30)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: options.targetArn,
        RoleArn: options.roleArn,
        // The run keeps its own time (the stale check compares it); the job says which attempt it is.
        Input: JSON.stringify({ type: 'generate-and-notify', ...run, attempt: 3 }),
        RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 5 },
        DeadLetterConfig: { Arn: options.deadLetterArn },
      },
    });
    expect(input.Name).not.toBe(scheduleName(run.articleId, run.platform));
  });

  it('a retry that exists already (a repeated delivery of the failed attempt made it) is that retry', async () => {
    const scheduler = mockClient(SchedulerClient);
    scheduler
      .on(CreateScheduleCommand)
      .rejects(new SchedulerConflict({ message: 'exists', Message: 'exists', $metadata: {} }));
    const eb = new EventBridgeScheduler(() => new SchedulerClient({ region: 'eu-west-1' }), options);
    await expect(eb.retry(run, 2, new Date('2026-12-01T08:31:00.000Z'))).resolves.toBeUndefined();
    scheduler.on(CreateScheduleCommand).rejects(new Error('ThrottlingException'));
    await expect(eb.retry(run, 2, new Date('2026-12-01T08:31:00.000Z'))).rejects.toThrow('ThrottlingException');
  });

  it("names a retry by its run's article, platform and time and its attempt, within 64 allowed characters", () => {
    const name = retryScheduleName({ ...run, articleId: 'x'.repeat(128) }, 100);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(name).toMatch(/^[0-9a-zA-Z-_.]+$/);
    const names = new Set([
      retryScheduleName(run, 2),
      retryScheduleName(run, 3),
      retryScheduleName({ ...run, platform: 'linkedin' }, 2),
      // The article moved to another time: its retries are not the earlier time's.
      retryScheduleName({ ...run, scheduledFor: '2026-12-02T08:30:00.000Z' }, 2),
    ]);
    expect(names.size).toBe(4);
  });

  it('keeps names within 64 allowed characters for long ids', () => {
    const name = scheduleName('x'.repeat(64), 'linkedin');
    expect(name.length).toBeLessThanOrEqual(64);
    expect(name).toMatch(/^[0-9a-zA-Z-_.]+$/);
    expect(scheduleName('x'.repeat(64), 'blog')).not.toBe(name);
  });
});
