import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sendCloudFormationResponse } from '../src/adapters/aws/cloudformation-response.js';
import { TABLE_BACKFILL_NAMES, runTableBackfills } from '../src/adapters/dynamo/backfills.js';
import { createDocumentClient, createDynamoClient } from '../src/adapters/dynamo/client.js';
import type { BackfillClock, IndexState } from '../src/domain/backfills.js';
import {
  handleBackfillRequest,
  type BackfillRequest,
  type BackfillResponse,
  type TableBackfillPorts,
} from '../src/jobs/table-backfills.js';
import { ensureTable } from '../src/local/dynamo.js';
import { BACKFILL_DEPLOY_LIMIT_MS, BACKFILL_INDEX_WAIT_MS, BACKFILL_STEP_RESERVE_MS } from '../src/time-budgets.js';

/**
 * The deployment's run of the backfills (jobs/table-backfills.ts): the CloudFormation request of the
 * custom resource (infra/lib/table-backfills.ts) over DynamoDB Local, answered to a local response URL.
 */
const endpoint = () => inject('dynamoEndpoint');
const db = createDocumentClient({ region: 'us-east-1', dynamoEndpoint: endpoint() });
const client = createDynamoClient({ region: 'us-east-1', dynamoEndpoint: endpoint() });

/** CloudFormation's side: the answers PUT to the response URL, with their content type. */
let server: Server;
let responseUrl: string;
const answers: { body: Record<string, unknown>; contentType: string | undefined; method: string }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      answers.push({
        body: JSON.parse(body) as Record<string, unknown>,
        contentType: req.headers['content-type'],
        method: req.method!,
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  responseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cfn-response?X-Amz-Signature=abc`;
});
afterAll(async () => {
  db.destroy();
  client.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** A table with one article of before the backfills (no index attributes, no calendar entry). */
async function olderTable(): Promise<{ table: string; articleKey: { PK: string; SK: string } }> {
  const table = `deploy-backfills-${randomBytes(4).toString('hex')}`;
  await ensureTable(endpoint(), table);
  const articleKey = { PK: 'USER#u1', SK: 'ARTICLE#a1' };
  await db.send(
    new PutCommand({
      TableName: table,
      Item: {
        ...articleKey,
        type: 'article',
        id: 'a1',
        userId: 'u1',
        updatedAt: '2026-01-01T00:00:00.000Z',
        blog: { content: 'b', publishedToWordPress: false, lastPublished: null },
        linkedin: { content: 'l', publishedToLinkedIn: false, lastPublished: null },
        scheduled: { blog: '2031-01-01T10:00:00.000Z', linkedin: null },
      },
    }),
  );
  return { table, articleKey };
}

const request = (table: string, changes: Partial<BackfillRequest> = {}): BackfillRequest => ({
  RequestType: 'Create',
  ResponseURL: responseUrl,
  StackId: 'arn:aws:cloudformation:eu-west-1:111111111111:stack/ContentPublisher/1',
  RequestId: randomBytes(8).toString('hex'),
  LogicalResourceId: 'TableBackfills',
  ResourceType: 'Custom::TableBackfills',
  ResourceProperties: { TableName: table, Backfills: [...TABLE_BACKFILL_NAMES], CodeHash: 'h1' },
  ...changes,
});

const built: IndexState[] = [
  { name: 'GSI1', status: 'ACTIVE', backfilling: false },
  { name: 'GSI2', status: 'ACTIVE', backfilling: false },
];

/**
 * The function's ports over DynamoDB Local and the response URL; `invocationMs` of Lambda time per
 * invocation on a clock moved by `minutesPerStep` at each backfill step (and by each sleep).
 */
function ports(
  options: { indexes?: () => IndexState[]; invocationMs?: number; minutesPerStep?: number; pageSize?: number } = {},
) {
  let now = 1_000_000;
  let invocationEnds = 0;
  const continued: BackfillRequest[] = [];
  const logged: string[] = [];
  const clock: BackfillClock = { now: () => now, sleep: async (ms) => void (now += ms) };
  const value: TableBackfillPorts = {
    run: (tableName, names, limits) =>
      runTableBackfills(db, client, tableName, {
        names,
        ...limits,
        pageSize: options.pageSize,
        clock,
        indexes: { describe: async () => (options.indexes ?? (() => built))() },
        onProgress: (e) => {
          if (e.event === 'step' || e.event === 'done') now += (options.minutesPerStep ?? 0) * 60_000;
        },
      }),
    respond: sendCloudFormationResponse,
    continueLater: async (next) => void continued.push(next),
    now: () => now,
    remainingMs: () => Math.max(0, invocationEnds - now),
    region: 'eu-west-1',
    log: { info: (m) => void logged.push(m), error: (m) => void logged.push(m) },
  };
  /** One Lambda invocation of `req`, as long as Lambda gives it. */
  const invoke = async (req: BackfillRequest) => {
    invocationEnds = now + (options.invocationMs ?? 15 * 60_000);
    await handleBackfillRequest(req, value);
  };
  return { value, invoke, continued, logged, advance: (ms: number) => void (now += ms) };
}

const lastAnswer = () => answers.at(-1)!;

describe('a deployment runs the backfills', () => {
  it('Create: runs each, answers SUCCESS with what ran (a PUT without content type); a second deployment runs none', async () => {
    const { table, articleKey } = await olderTable();
    const run = ports();
    const create = request(table);
    await run.invoke(create);
    expect(lastAnswer()).toEqual({
      method: 'PUT',
      contentType: '',
      body: {
        Status: 'SUCCESS',
        PhysicalResourceId: `${table}-backfills`,
        Data: { Ran: TABLE_BACKFILL_NAMES.join(',') },
        StackId: create.StackId,
        RequestId: create.RequestId,
        LogicalResourceId: 'TableBackfills',
      },
    });
    const article = (await db.send(new GetCommand({ TableName: table, Key: articleKey }))).Item!;
    expect(article.GSI1PK).toBe('OPEN#u1');
    expect(
      (
        await db.send(
          new GetCommand({ TableName: table, Key: { PK: 'USER#u1', SK: 'CAL#2031-01-01T10:00:00.000Z#a1#blog' } }),
        )
      ).Item,
    ).toBeDefined();

    // The next deployment (new code: another CodeHash) finds every marker set.
    await run.invoke(
      request(table, {
        RequestType: 'Update',
        PhysicalResourceId: `${table}-backfills`,
        ResourceProperties: { ...create.ResourceProperties, CodeHash: 'h2' },
        OldResourceProperties: create.ResourceProperties,
      }),
    );
    expect(lastAnswer().body).toMatchObject({
      Status: 'SUCCESS',
      PhysicalResourceId: `${table}-backfills`,
      Data: { Ran: '' },
    });
    expect(run.continued).toEqual([]);
  });

  it('Delete answers SUCCESS at once and touches no table', async () => {
    const run = ports();
    await run.invoke(
      request('no-such-table', { RequestType: 'Delete', PhysicalResourceId: 'no-such-table-backfills' }),
    );
    expect(lastAnswer().body).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'no-such-table-backfills' });
  });

  it('runs only the backfills its properties list: a rollback, with the earlier list, runs none of the new ones', async () => {
    const { table, articleKey } = await olderTable();
    const run = ports();
    await run.invoke(request(table, { ResourceProperties: { TableName: table, Backfills: ['calendar-entries-v1'] } }));
    expect(lastAnswer().body).toMatchObject({ Status: 'SUCCESS', Data: { Ran: 'calendar-entries-v1' } });
    expect((await db.send(new GetCommand({ TableName: table, Key: articleKey }))).Item!.GSI1PK).toBeUndefined();
  });
});

describe('a run longer than one invocation', () => {
  it('goes on in the next invocation (the same request, asynchronously) from the markers, and answers once, at the end', async () => {
    const { table } = await olderTable();
    // Each step takes "half a minute" of a 3-minute invocation: with the reserve of two, two steps per invocation
    // (and every backfill's steps together well within the deployment's 50 minutes).
    expect(BACKFILL_STEP_RESERVE_MS).toBe(2 * 60_000);
    const run = ports({ invocationMs: 3 * 60_000, minutesPerStep: 0.5, pageSize: 1 });
    const before = answers.length;
    let next: BackfillRequest | undefined = request(table);
    let invocations = 0;
    while (next) {
      invocations++;
      await run.invoke(next);
      next = run.continued.shift();
      expect(invocations).toBeLessThan(40);
    }
    expect(invocations).toBeGreaterThan(2);
    expect(answers.length - before).toBe(1);
    expect(lastAnswer().body).toMatchObject({ Status: 'SUCCESS', Data: { Ran: TABLE_BACKFILL_NAMES.join(',') } });
    expect(run.logged.filter((m) => m === 'Backfills go on in another invocation')).toHaveLength(invocations - 1);
  });

  it('keeps when the run began: past the deployment limit with work left, it answers FAILED with the command to run', async () => {
    const { table } = await olderTable();
    // Steps of ten minutes: the limit (50 minutes) comes before the last one.
    const run = ports({ minutesPerStep: 10, pageSize: 1 });
    let next: BackfillRequest | undefined = request(table);
    while (next) {
      await run.invoke(next);
      next = run.continued.shift();
    }
    const reason = lastAnswer().body.Reason as string;
    expect(lastAnswer().body.Status).toBe('FAILED');
    expect(reason).toContain(
      `had not finished ${BACKFILL_DEPLOY_LIMIT_MS / 60_000} minutes after the deployment started it`,
    );
    expect(reason).toContain(`TABLE_NAME=${table} AWS_REGION=eu-west-1 npx tsx functions/src/local/run-backfills.ts`);
  });
});

describe('an index still being built', () => {
  it('never ACTIVE: FAILED naming the index and the command; the next deployment, once it is built, succeeds', async () => {
    const { table } = await olderTable();
    let state: IndexState[] = [built[0]!, { name: 'GSI2', status: 'CREATING', backfilling: true }];
    const run = ports({ indexes: () => state });
    let next: BackfillRequest | undefined = request(table);
    let invocations = 0;
    while (next) {
      invocations++;
      await run.invoke(next);
      next = run.continued.shift();
    }
    // The wait spans invocations (each pauses before its end) until the index wait is over.
    expect(invocations).toBeGreaterThan(BACKFILL_INDEX_WAIT_MS / (15 * 60_000));
    expect(lastAnswer().body).toMatchObject({ Status: 'FAILED', PhysicalResourceId: `${table}-backfills` });
    expect(lastAnswer().body.Reason).toBe(
      `Table backfills on ${table} failed: The backfill article-indexes-v1 needs the index GSI2, which is still ` +
        'CREATING (backfilling). What they did is kept (their markers): the next deployment resumes them, or run: ' +
        `TABLE_NAME=${table} AWS_REGION=eu-west-1 npx tsx functions/src/local/run-backfills.ts (docs/operations.md, Table changes)`,
    );

    state = built;
    await run.invoke(request(table, { RequestType: 'Update', PhysicalResourceId: `${table}-backfills` }));
    expect(lastAnswer().body).toMatchObject({ Status: 'SUCCESS', Data: { Ran: TABLE_BACKFILL_NAMES.join(',') } });
  });
});

describe('the answer to CloudFormation', () => {
  it('a response URL that refuses the answer is an error (Lambda retries the invocation)', async () => {
    const refusing = createServer((_req, res) => res.writeHead(403).end());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/x`;
      const answer: BackfillResponse = { Status: 'SUCCESS', PhysicalResourceId: 'p' };
      await expect(
        sendCloudFormationResponse({ ResponseURL: url, StackId: 's', RequestId: 'r', LogicalResourceId: 'l' }, answer),
      ).rejects.toThrow('HTTP 403');
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });
});
