import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exposureWarning, isLoopback, listenHost, localUrl } from '../../src/local/host.js';
import { startLocalStack, type LocalStack } from '../../src/local/stack.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const hasProcNet = existsSync('/proc/net/tcp');

/** "0100007F" (a little-endian 32-bit word of /proc/net/tcp*) as its four bytes in network order. */
const wordBytes = (hex: string): number[] => [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** An address of /proc/net/tcp or tcp6 as text; IPv4-mapped IPv6 addresses as plain IPv4. */
function procAddress(hex: string): string {
  if (hex.length === 8) return wordBytes(hex).join('.');
  const bytes = [0, 8, 16, 24].flatMap((i) => wordBytes(hex.slice(i, i + 8)));
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff)
    return bytes.slice(12).join('.');
  if (bytes.every((b) => b === 0)) return '::';
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return '::1';
  return Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(':');
}

/** The local addresses of the TCP sockets listening on `port` on this machine (Linux). */
function listeningAddresses(port: number): string[] {
  const found = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue; // 0A: LISTEN
      const [address, portHex] = local.split(':');
      if (parseInt(portHex!, 16) === port) found.add(procAddress(address!));
    }
  }
  return [...found].sort();
}

/** This machine's IPv4 addresses other than loopback (a LAN peer would connect to one of these). */
const otherAddresses = (): string[] =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = connect({ host, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolvePromise(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolvePromise(false);
    });
    socket.once('error', () => resolvePromise(false));
  });
}

const portOf = (url: string) => Number(new URL(url).port);

describe('the local stack with default options', () => {
  let stack: LocalStack;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cp-binding-'));
    // Its own DynamoDB Local, started as `npm start` starts it (not the run's shared one).
    stack = await startLocalStack({
      port: 0,
      dataDir,
      inMemory: true,
      tableName: `binding-${randomBytes(4).toString('hex')}`,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const services = () => ({ app: stack.port, dynamodb: portOf(stack.dynamoEndpoint), s3: portOf(stack.s3Endpoint) });

  it.runIf(hasProcNet)('the app, DynamoDB Local and the S3 store listen on 127.0.0.1 only', () => {
    const bound = Object.fromEntries(
      Object.entries(services()).map(([name, port]) => [name, listeningAddresses(port)]),
    );
    expect(bound).toEqual({ app: ['127.0.0.1'], dynamodb: ['127.0.0.1'], s3: ['127.0.0.1'] });
  });

  it('none of them answers on another address of this machine', async () => {
    const addresses = otherAddresses();
    if (addresses.length === 0) console.log('SKIPPED: no non-loopback IPv4 address on this machine to connect through');
    for (const address of addresses) {
      for (const [name, port] of Object.entries(services())) {
        expect(await connects(address, port), `${name} on ${address}:${port}`).toBe(false);
      }
    }
    // The same ports do answer on loopback, so a refusal above is the binding, not a stopped service.
    for (const [name, port] of Object.entries(services())) expect(await connects('127.0.0.1', port), name).toBe(true);
  });
});

describe('HOST', () => {
  it('is 127.0.0.1 unless set', () => {
    expect(listenHost({})).toBe('127.0.0.1');
    expect(listenHost({ HOST: '' })).toBe('127.0.0.1');
    expect(listenHost({ HOST: '0.0.0.0' })).toBe('0.0.0.0');
  });

  it('warns only for an address other machines can reach', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.1.1']) {
      expect(isLoopback(host), host).toBe(true);
      expect(exposureWarning(host, 3480), host).toBeUndefined();
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.20'])
      expect(exposureWarning(host, 3480), host).toMatch(/reachable from other machines/);
  });

  it('gives a URL that reaches the server', () => {
    expect(localUrl('127.0.0.1', 3480)).toBe('http://localhost:3480');
    expect(localUrl('0.0.0.0', 3480)).toBe('http://localhost:3480');
    expect(localUrl('192.168.1.20', 3480)).toBe('http://192.168.1.20:3480');
    expect(localUrl('fd00::5', 3480)).toBe('http://[fd00::5]:3480');
  });

  it('HOST=0.0.0.0: `npm start` listens on every interface and prints one warning line at start-up', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cp-host-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOST: '0.0.0.0',
      PORT: '0',
      DATA_DIR: dataDir,
      POWERTOOLS_LOG_LEVEL: 'WARN',
    };
    for (const name of [
      'PUBLIC_URL',
      'SESSION_SECRET',
      'LOCAL_SECRETS_KEY',
      'OUTBOX_DIR',
      'TABLE_NAME',
      'DYNAMODB_ENDPOINT',
      'S3_ENDPOINT',
    ]) {
      delete env[name];
    }
    const child = spawn(process.execPath, ['--import', 'tsx', 'functions/src/local/main.ts', '--api-only'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      const url = await new Promise<string>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`not started within 90 s:\n${output}`)), 90_000);
        child.stdout.on('data', () => {
          const m = /is running on (\S+)/.exec(output);
          if (m) {
            clearTimeout(timer);
            resolvePromise(m[1]!);
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`exited with ${code}:\n${output}`));
        });
      });
      const port = portOf(url);
      const warnings = output.split('\n').filter((line) => line.includes('WARNING'));
      expect(warnings).toEqual([
        expect.stringMatching(
          new RegExp(`^WARNING: HOST=0\\.0\\.0\\.0: .*reachable from other machines on port ${port}\\b`),
        ),
      ]);
      if (hasProcNet) expect(listeningAddresses(port)).toEqual(['0.0.0.0']);
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
