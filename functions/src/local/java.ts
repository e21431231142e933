import { spawnSync } from 'node:child_process';

export const JAVA_MISSING =
  'Java 17 or newer is required for DynamoDB Local: install it (e.g. `apt-get install openjdk-17-jre-headless`) and run the command again.';

/** The major version of `java` on PATH, or undefined when there is none. */
export function javaMajorVersion(): number | undefined {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (out.error || out.status !== 0) return undefined;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${out.stderr}${out.stdout}`);
  if (!m) return undefined;
  const major = Number(m[1]);
  return major === 1 ? Number(m[2]) : major;
}

export function assertJava(): void {
  const major = javaMajorVersion();
  if (major === undefined || major < 17) throw new Error(JAVA_MISSING);
}
