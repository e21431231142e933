import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('`npm start` given a running DynamoDB Local', () => {
  it('uses a table of its own there (TABLE_NAME) instead of starting one in DATA_DIR', async () => {
    const endpoint = inject('dynamoEndpoint');
    const table = `shared-${randomBytes(4).toString('hex')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'cp-shared-dynamo-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'functions/src/local/main.ts', '--api-only'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: dataDir,
        DYNAMODB_ENDPOINT: endpoint,
        TABLE_NAME: table,
        POWERTOOLS_LOG_LEVEL: 'WARN',
        PUBLIC_URL: '',
        SESSION_SECRET: '',
        LOCAL_SECRETS_KEY: '',
        OUTBOX_DIR: '',
        S3_ENDPOINT: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const client = new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      await new Promise<void>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`not started within 90 s:\n${output}`)), 90_000);
        child.stdout.on('data', () => {
          if (output.includes('is running on')) {
            clearTimeout(timer);
            resolvePromise();
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`exited with ${code}:\n${output}`));
        });
      });
      const { TableNames = [] } = await client.send(new ListTablesCommand({}));
      expect(TableNames).toContain(table);
      // No DynamoDB Local of its own: it would keep its files here.
      expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
    } finally {
      client.destroy();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
