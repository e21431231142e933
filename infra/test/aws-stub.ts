/**
 * A stand-in for the AWS APIs the bundled functions call besides DynamoDB and S3 (which run as
 * DynamoDB Local and s3rver): one HTTP server on 127.0.0.1 that the bundles reach through the SDK's
 * own endpoint settings (AWS_ENDPOINT_URL_<SERVICE>, AWS_ENDPOINT_URL), speaking each service's wire
 * protocol as far as the functions use it:
 * - Secrets Manager (JSON 1.1): the stack's secrets by ARN with the values given, and per-user
 *   secrets created, written, read and deleted in memory (versions as ClientRequestToken says);
 * - Lambda Invoke (REST): recorded (the worker is invoked by the test itself, with the payload);
 * - EventBridge Scheduler (REST JSON): UpdateSchedule answers "not found", CreateSchedule is recorded;
 * - EventBridge PutEvents (JSON 1.1): the entries are recorded and accepted.
 * Anything else is answered with an error and kept in `unexpected`, so a call the test did not
 * foresee fails it instead of reaching AWS.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface StoredSecret {
  arn: string;
  name: string;
  versions: Map<string, string>;
  current: string;
  tags: { Key: string; Value: string }[];
  deleted: boolean;
}

export interface AwsStub {
  url: string;
  /** Lambda invocations: function name, invocation type, the payload as JSON. */
  invocations: { functionName: string; invocationType: string; payload: unknown }[];
  /** CreateSchedule inputs (the schedule's name from the path, the body as sent). */
  schedules: { name: string; input: any }[];
  /** PutEvents entries, as sent (EventBusName, Source, DetailType, Detail, Time). */
  putEvents: Record<string, unknown>[];
  /** Every Secrets Manager call: operation and secret id. */
  secretCalls: { operation: string; secretId: string }[];
  /** Requests no stub answers: method, path and target. */
  unexpected: string[];
  stop(): Promise<void>;
}

const ACCOUNT = '111111111111';
const REGION = 'us-east-1';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** `fixed`: the stack's own secrets, ARN → value. */
export async function startAwsStub(fixed: ReadonlyMap<string, string>): Promise<AwsStub> {
  const secrets = new Map<string, StoredSecret>();
  for (const [arn, value] of fixed) {
    const version = randomUUID();
    secrets.set(arn, {
      arn,
      name: arn,
      versions: new Map([[version, value]]),
      current: version,
      tags: [],
      deleted: false,
    });
  }
  const byId = (id: string) => secrets.get(id) ?? [...secrets.values()].find((s) => s.name === id);
  const stub: Omit<AwsStub, 'url' | 'stop'> = {
    invocations: [],
    schedules: [],
    putEvents: [],
    secretCalls: [],
    unexpected: [],
  };

  const notFound = (res: ServerResponse) =>
    json(res, 400, {
      __type: 'ResourceNotFoundException',
      message: "Secrets Manager can't find the specified secret.",
    });

  function secretsManager(operation: string, input: any, res: ServerResponse): void {
    const id = String(input.SecretId ?? input.Name ?? '');
    stub.secretCalls.push({ operation, secretId: id });
    const secret = byId(id);
    const live = secret && !secret.deleted ? secret : undefined;
    const answer = (s: StoredSecret, version = s.current) => ({ ARN: s.arn, Name: s.name, VersionId: version });
    switch (operation) {
      case 'GetSecretValue': {
        if (!live) return notFound(res);
        const version = input.VersionId ?? live.current;
        if (!live.versions.has(version)) return notFound(res);
        return json(res, 200, {
          ...answer(live, version),
          SecretString: live.versions.get(version),
          VersionStages: version === live.current ? ['AWSCURRENT'] : [],
          CreatedDate: Date.now() / 1000,
        });
      }
      case 'DescribeSecret':
        if (!live) return notFound(res);
        return json(res, 200, {
          ...answer(live),
          Tags: live.tags,
          VersionIdsToStages: { [live.current]: ['AWSCURRENT'] },
        });
      case 'CreateSecret': {
        if (live)
          return json(res, 400, {
            __type: 'ResourceExistsException',
            message: 'The operation failed because the secret already exists.',
          });
        const version = String(input.ClientRequestToken ?? randomUUID());
        const name = String(input.Name);
        const created: StoredSecret = {
          arn: `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-AbCdEf`,
          name,
          versions: new Map([[version, String(input.SecretString ?? '')]]),
          current: version,
          tags: input.Tags ?? [],
          deleted: false,
        };
        secrets.set(created.arn, created);
        return json(res, 200, answer(created));
      }
      case 'PutSecretValue': {
        if (!live) return notFound(res);
        const version = String(input.ClientRequestToken ?? randomUUID());
        const value = String(input.SecretString ?? '');
        const existing = live.versions.get(version);
        if (existing !== undefined && existing !== value) {
          return json(res, 400, {
            __type: 'ResourceExistsException',
            message: 'You can’t modify an existing version, you can only create new versions.',
          });
        }
        live.versions.set(version, value);
        live.current = version;
        return json(res, 200, { ...answer(live), VersionStages: ['AWSCURRENT'] });
      }
      case 'DeleteSecret':
        if (!live) return notFound(res);
        live.deleted = true;
        return json(res, 200, { ARN: live.arn, Name: live.name, DeletionDate: Date.now() / 1000 });
      case 'TagResource':
        if (!live) return notFound(res);
        live.tags.push(...(input.Tags ?? []));
        return json(res, 200, {});
      default:
        stub.unexpected.push(`secretsmanager.${operation}`);
        return json(res, 400, {
          __type: 'UnknownOperationException',
          message: `The stub does not answer ${operation}`,
        });
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://stub');
      const target = String(req.headers['x-amz-target'] ?? '');
      if (target.startsWith('secretsmanager.'))
        return secretsManager(target.slice('secretsmanager.'.length), JSON.parse(body || '{}'), res);
      if (target === 'AWSEvents.PutEvents') {
        const entries = (JSON.parse(body || '{}') as { Entries?: Record<string, unknown>[] }).Entries ?? [];
        stub.putEvents.push(...entries);
        return json(res, 200, { FailedEntryCount: 0, Entries: entries.map(() => ({ EventId: randomUUID() })) });
      }
      const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(url.pathname);
      if (invoke && req.method === 'POST') {
        const invocationType = String(req.headers['x-amz-invocation-type'] ?? 'RequestResponse');
        stub.invocations.push({
          functionName: decodeURIComponent(invoke[1]!),
          invocationType,
          payload: body ? JSON.parse(body) : undefined,
        });
        res.writeHead(invocationType === 'Event' ? 202 : 200, { 'content-length': 0 });
        return res.end();
      }
      const schedule = /^\/schedules\/([^/]+)$/.exec(url.pathname);
      if (schedule && req.method === 'PUT') {
        return json(
          res,
          404,
          { Message: 'Schedule not found' },
          { 'x-amzn-errortype': 'ResourceNotFoundException', 'content-type': 'application/json' },
        );
      }
      if (schedule && req.method === 'POST') {
        const name = decodeURIComponent(schedule[1]!);
        stub.schedules.push({ name, input: JSON.parse(body || '{}') });
        return json(
          res,
          200,
          { ScheduleArn: `arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/${name}` },
          { 'content-type': 'application/json' },
        );
      }
      stub.unexpected.push(`${req.method} ${url.pathname} ${target}`.trim());
      json(res, 400, { __type: 'UnknownOperationException', message: 'Not answered by the AWS stub of the tests' });
    })().catch((err: unknown) => {
      stub.unexpected.push(`error: ${(err as Error).message}`);
      if (!res.headersSent) json(res, 500, { __type: 'InternalServiceError', message: 'stub failure' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    ...stub,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
