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

export const JAVA_COMPILER_MISSING =
  'DynamoDB Local is started through a small Java source file that keeps it on 127.0.0.1, and this Java cannot run ' +
  'source files (no jdk.compiler module): install a full JDK 17+ (e.g. `apt-get install openjdk-17-jdk-headless`) ' +
  'and run the command again.';

let runsSource: boolean | undefined;

/** Java's source-file mode (`java File.java`) needs the jdk.compiler module, which jlink-made JREs may leave out. */
export function assertJavaRunsSource(): void {
  runsSource ??= /^jdk\.compiler@/m.test(spawnSync('java', ['--list-modules'], { encoding: 'utf8' }).stdout ?? '');
  if (!runsSource) throw new Error(JAVA_COMPILER_MISSING);
}
