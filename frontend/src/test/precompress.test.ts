import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, expect, it } from 'vitest';
import type { ResolvedConfig } from 'vite';
import { precompress } from '../../vite-precompress';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the plugin's hooks as `vite build` does, over `files` written into a fresh outDir. */
async function build(files: Record<string, string | Buffer>) {
  dir = mkdtempSync(join(tmpdir(), 'cp-precompress-'));
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  const plugin = precompress();
  const call = (hook: unknown, ...args: unknown[]) =>
    (typeof hook === 'function' ? hook : (hook as { handler: (...a: unknown[]) => unknown }).handler).apply({}, args);
  await call(plugin.configResolved, { root: '/elsewhere', build: { outDir: dir } } as unknown as ResolvedConfig);
  await call(plugin.closeBundle);
}

const prose = (n: number) => Array.from({ length: n }, (_, i) => `const value${i % 50} = "text ${i % 13}";`).join('\n');

it('writes a brotli and a gzip variant beside each text file of the build, each decoding to the file', async () => {
  const script = prose(200);
  const html = `<!doctype html><body>${'<p>welcome</p>'.repeat(100)}</body>`;
  await build({ 'index.html': html, 'assets/index-abc.js': script, 'assets/index-abc.css': prose(100) });
  for (const [name, body] of [
    ['index.html', html],
    ['assets/index-abc.js', script],
  ]) {
    const br = readFileSync(join(dir, `${name}.br`));
    const gz = readFileSync(join(dir, `${name}.gz`));
    expect(brotliDecompressSync(br).toString()).toBe(body);
    expect(gunzipSync(gz).toString()).toBe(body);
    expect(br.length).toBeLessThan(gz.length);
  }
  expect(existsSync(join(dir, 'assets/index-abc.css.br'))).toBe(true);
});

it('leaves small files, binary files and what would not shrink as they are', async () => {
  const noise = randomBytes(4000);
  await build({
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'assets/photo-abc.png': Buffer.from(prose(200)),
    'assets/random-abc.js': noise,
  });
  for (const name of ['favicon.svg', 'assets/photo-abc.png', 'assets/random-abc.js'])
    for (const suffix of ['.br', '.gz']) expect(existsSync(join(dir, name + suffix)), name + suffix).toBe(false);
});
