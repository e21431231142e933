// The Bluesky PDS of the functions tests, run by pds.ts in a child process on Node 22 (the packages need it).
// A real @atproto/pds with an in-memory PLC directory (TestNetworkNoAppView): no Postgres, no Redis, no network.
// Prints one JSON line, {"url": …} once it answers or {"error": …}, and stops when its standard input closes
// (the test run ended or its process died) or on SIGTERM, and then removes its data folder.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const installDir = process.env.ATPROTO_DEV_ENV_DIR;
let network;

async function stop(code) {
  try {
    await network?.close();
  } finally {
    // The data folder is this process's own: removed here too, for when the test process died and cannot.
    if (process.env.ATPROTO_PDS_DATA_DIR) rmSync(process.env.ATPROTO_PDS_DATA_DIR, { recursive: true, force: true });
    process.exit(code);
  }
}

try {
  if (!installDir) throw new Error('ATPROTO_DEV_ENV_DIR is not set');
  // This module alone, not the package's index: the index loads the AppView, Ozone and the rest too, twice the time
  // and ~50 MB more for servers this test network does not run.
  const entry = join(installDir, 'node_modules', '@atproto', 'dev-env', 'dist', 'network-no-appview.js');
  const { TestNetworkNoAppView } = await import(pathToFileURL(entry).href);
  const started = Date.now();
  network = await TestNetworkNoAppView.create({});
  process.stdout.write(`${JSON.stringify({ url: network.pds.url, startMs: Date.now() - started })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: String(error?.stack ?? error) })}\n`);
  await stop(1);
}

process.stdin.on('end', () => void stop(0));
process.stdin.on('error', () => void stop(0));
process.stdin.resume();
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
