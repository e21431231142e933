/**
 * The app for the Lighthouse part of `npm run bench` (lighthouse.ts), in a process of its own so that
 * Lighthouse's work does not slow its answers: the local stack as `npm start` runs it (the built SPA of
 * frontend/dist, DynamoDB Local on disk in DATA_DIR), with a signed-in admin who has articles for the
 * dashboard. Prints one JSON line { url, email, password } when ready; SIGTERM stops it.
 * BENCH_STATIC_DIR serves another build than frontend/dist (to compare two builds).
 */
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is required');
const articleCount = Number(process.env.BENCH_ARTICLES ?? 60);

const { startLocalStack } = await import('../../functions/src/local/stack.js');
const { createDocumentClient } = await import('../../functions/src/adapters/dynamo/client.js');
const { seedArticles } = await import('./seed.js');

const tableName = `lighthouse-${randomBytes(4).toString('hex')}`;
const stack = await startLocalStack({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  tableName,
  staticDir: process.env.BENCH_STATIC_DIR ?? join(root, 'frontend/dist'),
});
const stop = () => void stack.stop().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

// The first account is an active admin, signed in at once.
const email = 'lighthouse@example.com';
const password = 'correct horse battery';
const registered = await fetch(`${stack.url}/api/auth/register`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: stack.url },
  body: JSON.stringify({ name: 'Light', surname: 'House', email, password, timezone: 'Europe/London' }),
});
if (!registered.ok) throw new Error(`registering answered ${registered.status}: ${await registered.text()}`);
const { user } = (await registered.json()) as { user: { _id: string } };

const db = createDocumentClient({
  region: process.env.AWS_REGION ?? 'us-east-1',
  dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
});
await seedArticles(db, tableName, user._id, articleCount);
db.destroy();

console.log(JSON.stringify({ url: stack.url, email, password }));
