/**
 * A second instance of the app (the same handlers) in its own process, on the table and data folder
 * of a test app: a function that can be killed mid-request (SIGKILL runs no `catch` or `finally`,
 * as when Lambda stops a function at its timeout).
 *
 *   const second = await startSecondServer(app);   // second.url; second.kill()
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { TestApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
/** The child's settings (second-server-main.ts). */
const MAIN = 'CP_SECOND_SERVER';

export interface SecondServer {
  url: string;
  /** SIGKILL, and resolves once the process is gone. */
  kill(): Promise<void>;
}

export async function startSecondServer(app: TestApp): Promise<SecondServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', resolve(here, 'second-server-main.ts')], {
    cwd: root,
    // The parent's environment carries the app's session and local secrets keys and the fakes' addresses.
    env: {
      ...process.env,
      [MAIN]: JSON.stringify({
        dataDir: app.dataDir,
        tableName: app.tableName,
        dynamoEndpoint: inject('dynamoEndpoint'),
      }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the second server did not start: ${errors}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^SECOND_SERVER (\S+)$/m.exec(out);
      if (line) {
        clearTimeout(timer);
        resolveUrl(line[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the second server exited (${code}): ${errors}`));
    });
  });
  return {
    url,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
