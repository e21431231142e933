import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether browser journeys can run; CI sets REQUIRE_BROWSER=1 so a missing browser fails instead. */
export function browserAvailable(): boolean {
  if (existsSync(chromiumPath)) return true;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but no Chromium at ${chromiumPath}`);
  console.log(`SKIPPED: browser journeys (no Chromium at ${chromiumPath}; apt-get install chromium)`);
  return false;
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

export interface RunningApp {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** The product as `npm start` runs it (built SPA + local stack) on a free port with its own data folder. */
export async function startApp(
  dataDir = mkdtempSync(join(tmpdir(), 'cp-e2e-')),
  extraEnv: Record<string, string> = {},
): Promise<RunningApp> {
  if (!existsSync(join(root, 'frontend/dist/index.html'))) throw new Error('frontend/dist is missing: run `npm run build` first');
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'functions/src/local/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://localhost:${port}`,
      POWERTOOLS_LOG_LEVEL: 'WARN',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (d: Buffer) => (output = (output + d.toString()).slice(-8000));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  await new Promise<void>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`The app did not start within 90 s:\n${output}`)), 90_000);
    child.stdout!.on('data', () => {
      if (output.includes('is running on')) {
        clearTimeout(timer);
        resolvePromise();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The app exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://localhost:${port}`,
    dataDir,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function removeData(app: RunningApp): void {
  rmSync(app.dataDir, { recursive: true, force: true });
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a screenshot under frontend/e2e/screenshots (git-ignored) for a person to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(root, 'frontend/e2e/screenshots', `${name}.png`) });
}
