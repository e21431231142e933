import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { resetDeps } from '../wiring/lazy.js';
import { setLocalJobRunner } from '../adapters/local/in-process-job-queue.js';
import { runJob } from '../jobs/run-job.js';
import { schedulerServices } from '../wiring/scheduler.js';
import { connectionHealth } from '../wiring/connection-health.js';
import { HEALTH_SWEEP_MINUTES } from '@app/shared';
import { runTableBackfills } from '../adapters/dynamo/backfills.js';
import { createDocumentClient, createDynamoClient } from '../adapters/dynamo/client.js';
import { onEventsCommitted, undeliveredEvents } from '../adapters/dynamo/event-outbox.js';
import { LocalEventDelivery } from '../adapters/local/event-delivery.js';
import { trackLocalWork } from '../adapters/local/in-process-job-queue.js';
import { logger } from '../logger.js';
import { deps } from '../wiring/deps.js';
import { eventRelay } from '../wiring/automation-events.js';
import { ensureTable, startDynamoLocal, type DynamoLocal } from './dynamo.js';
import { localUrl } from './host.js';
import { LOOPBACK } from './ports.js';
import { startLocalS3, type LocalS3 } from './s3.js';
import { createLocalServer } from './server.js';

export interface LocalStackOptions {
  /** 0 picks a free port. */
  port: number;
  /** The app's address; 127.0.0.1 (this machine only) unless given. DynamoDB Local and S3 stay on loopback. */
  host?: string;
  /** Where DynamoDB data, S3 objects and local keys live. */
  dataDir: string;
  /** Keep DynamoDB in memory (tests). */
  inMemory?: boolean;
  /** Reuse a running DynamoDB Local instead of starting one (tests share one per run). */
  dynamoEndpoint?: string;
  tableName?: string;
  staticDir?: string;
}

export interface LocalStack {
  url: string;
  port: number;
  /** Where DynamoDB Local (when this stack started it) and the S3 store answer. */
  dynamoEndpoint: string;
  s3Endpoint: string;
  stop(): Promise<void>;
}

/**
 * The data folder holds the session and secrets keys, the table, the images and the outbox, whose mails
 * carry bearer approval links: this user's alone. It is created 0700 (an existing one is narrowed to it),
 * and everything this process creates from now on, DynamoDB Local's and the store's files included
 * (children inherit it), is 0600 (folders 0700).
 */
function makePrivate(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dataDir, 0o700);
  } catch (err) {
    console.warn(`Could not make ${dataDir} private to this user (chmod 700): ${(err as Error).message}`);
  }
  try {
    process.umask(0o077);
  } catch {
    // A worker thread cannot change it; the app's own files are written 0600 explicitly all the same.
  }
}

/** A key generated once into the data folder, so sessions survive a restart. */
function persistentSecret(dataDir: string, name: string, bytes = 48): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(bytes).toString('base64');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** DynamoDB Local + s3rver + the local API/SPA server, wired through environment variables. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  makePrivate(options.dataDir);
  const env = process.env;
  env.TABLE_NAME = options.tableName ?? env.TABLE_NAME ?? 'content-publisher';
  env.SESSION_SECRET ||= persistentSecret(options.dataDir, 'session-secret');
  // Integration secrets are encrypted at rest with this key (Secrets Manager's role in AWS).
  env.LOCAL_SECRETS_KEY ||= persistentSecret(options.dataDir, 'secrets-key', 32);
  env.AWS_REGION ||= 'us-east-1';
  // Without Gmail configured, mail is written here as .eml files.
  env.OUTBOX_DIR ||= join(options.dataDir, 'outbox');
  // The domain events, as EventBridge rules would see them (README, Events for automation).
  env.EVENTS_FILE ||= join(options.dataDir, 'events.jsonl');
  // Local sites (a WordPress on localhost) are fine here; AWS refuses private addresses.
  env.ALLOW_PRIVATE_URLS ||= '1';
  const config = loadConfig(env);

  let dynamo: DynamoLocal | undefined;
  let s3: LocalS3 | undefined;
  const stops: (() => Promise<void>)[] = [];
  try {
    if (options.dynamoEndpoint) {
      env.DYNAMODB_ENDPOINT = options.dynamoEndpoint;
    } else {
      dynamo = await startDynamoLocal({ dataDir: options.inMemory ? undefined : join(options.dataDir, 'dynamodb') });
      stops.push(() => dynamo!.stop());
      env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    }
    await ensureTable(env.DYNAMODB_ENDPOINT, config.tableName);
    // Data written by an older version gets what later ones added (index attributes, calendar entries,
    // dashboard summaries): each backfill once per table, the same list a deployment runs in AWS
    // (adapters/dynamo/backfills.ts; docs/operations.md, Table changes). ensureTable has built the indexes.
    const client = createDynamoClient({ region: config.region, dynamoEndpoint: env.DYNAMODB_ENDPOINT });
    const db = createDocumentClient({ region: config.region, dynamoEndpoint: env.DYNAMODB_ENDPOINT });
    try {
      await runTableBackfills(db, client, config.tableName);
    } finally {
      db.destroy();
      client.destroy();
    }

    s3 = await startLocalS3({ directory: join(options.dataDir, 's3'), buckets: [config.imagesBucket] });
    stops.push(() => s3!.stop());
    env.S3_ENDPOINT = s3.endpoint;
    // The store accepts only requests signed with this run's secret (local/s3.ts).
    env.S3_LOCAL_SECRET = s3.credentials.secretAccessKey;

    let publicUrl = '';
    const server = createLocalServer({
      staticDir: options.staticDir,
      uploadOrigin: s3.endpoint,
      // Set once listening (the port may be picked then): requests must name its host (DNS rebinding).
      publicUrl: () => publicUrl,
    });
    const host = options.host ?? LOOPBACK;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => resolve());
    });
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const port = (server.address() as AddressInfo).port;
    const url = localUrl(host, port);
    env.PUBLIC_URL ||= url;
    publicUrl = env.PUBLIC_URL;
    env.PORT = String(port);
    // The browser posts uploaded images straight to the store from the app's page (domain/images.ts).
    await s3.allowBrowserUploads(config.imagesBucket, [
      ...new Set([new URL(env.PUBLIC_URL).origin, url, `http://localhost:${port}`, `http://${LOOPBACK}:${port}`]),
    ]);
    resetDeps();
    setLocalJobRunner(runJob);
    // The table's stream and the worker that reads it, in AWS: each write's events are delivered after it,
    // and retried until they are (adapters/local/event-delivery.ts).
    const delivery = new LocalEventDelivery(() => eventRelay(), {
      onError: (error) => logger.warn('domain event delivery failed; it is tried again', { error: error as Error }),
    });
    const stopListening = onEventsCommitted((entries) => delivery.deliver(entries));
    stops.push(async () => {
      stopListening();
      delivery.stop();
    });
    // Events a previous run wrote but did not deliver (it stopped first), in the background.
    void trackLocalWork(
      undeliveredEvents(deps().db, config.tableName)
        .then((entries) => delivery.deliver(entries))
        .catch((error: unknown) =>
          logger.warn('undelivered domain events could not be read', { error: error as Error }),
        ),
    );
    // EventBridge Scheduler's stand-in: re-arm every stored schedule (past ones fire now).
    await schedulerServices().restore();
    stops.push(async () => schedulerServices().stop());
    // The rate schedule's stand-in: the check before each slot, every HEALTH_SWEEP_MINUTES (domain/connection-health.ts).
    const sweep = setInterval(() => {
      void trackLocalWork(
        connectionHealth()
          .sweep()
          .catch((error: unknown) => logger.warn('connection health sweep failed', { error: error as Error })),
      );
    }, HEALTH_SWEEP_MINUTES * 60_000);
    sweep.unref();
    stops.push(async () => clearInterval(sweep));
    return {
      url,
      port,
      dynamoEndpoint: env.DYNAMODB_ENDPOINT,
      s3Endpoint: s3.endpoint,
      async stop() {
        for (const stop of stops.reverse()) await stop().catch(() => undefined);
      },
    };
  } catch (err) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    throw err;
  }
}
