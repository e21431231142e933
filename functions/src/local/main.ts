import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exposureWarning, listenHost } from './host.js';
import { JAVA_MISSING, javaMajorVersion } from './java.js';
import { startLocalStack } from './stack.js';

/** `npm start`: the whole product on one port of HOST (default 127.0.0.1), data kept in DATA_DIR (default .data/). */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const apiOnly = process.argv.includes('--api-only');

async function main() {
  const major = javaMajorVersion();
  if (major === undefined || major < 17) {
    console.error(JAVA_MISSING);
    process.exit(1);
  }
  const dataDir = resolve(process.env.DATA_DIR ?? resolve(root, '.data'));
  const port = Number(process.env.PORT ?? 3000);
  const host = listenHost();
  const stack = await startLocalStack({
    port,
    host,
    dataDir,
    // A DynamoDB (Local) that is already running: its tables are used instead of starting one (the browser
    // journeys share one per run, each app with a TABLE_NAME of its own).
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    staticDir: apiOnly ? undefined : resolve(root, 'frontend/dist'),
  });
  const warning = exposureWarning(host, stack.port);
  if (warning) console.warn(warning);
  console.log(
    `Content Publisher is running on ${process.env.PUBLIC_URL ?? stack.url} (data in ${dataDir}). Ctrl-C stops it.`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping…`);
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
