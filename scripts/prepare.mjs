// Shared by `npm start` and `npm test`: install what is missing, check Java. Uses only Node built-ins,
// because it runs before dependencies are installed.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACES = ['shared', 'functions', 'frontend', 'infra'];

export const localEnv = {
  ...process.env,
  // The AWS SDK warns about Node 20 on every start; Lambda runs Node 22, so the warning is noise here.
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: localEnv, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function installFingerprint() {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json', ...WORKSPACES.map((w) => join(w, 'package.json'))]) {
    const path = join(root, file);
    if (existsSync(path)) hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex');
}

/** Runs `npm ci` (fresh clone) or `npm install` (changed manifests) only when needed. */
export function ensureInstalled() {
  const stamp = join(root, 'node_modules', '.install-fingerprint');
  const fingerprint = installFingerprint();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint) return;
  const fresh = !existsSync(join(root, 'node_modules'));
  console.log(fresh ? 'Installing dependencies (npm ci)…' : 'Dependencies changed: npm install…');
  const status = run('npm', [fresh ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    shell: process.platform === 'win32',
  });
  if (status !== 0) {
    console.error('Installing dependencies failed: see the npm output above.');
    process.exit(status);
  }
  writeFileSync(stamp, installFingerprint());
}

/** DynamoDB Local needs Java 17+: say so in one line and stop when it is missing. */
export function ensureJava() {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${out.stderr ?? ''}${out.stdout ?? ''}`);
  const major = m ? (Number(m[1]) === 1 ? Number(m[2]) : Number(m[1])) : 0;
  if (out.error || out.status !== 0 || major < 17) {
    console.error(
      'Java 17 or newer is required for DynamoDB Local: install it (e.g. `apt-get install openjdk-17-jre-headless`) and run the command again.',
    );
    process.exit(1);
  }
}
