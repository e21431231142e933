import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer } from '../../src/local/server.js';

/**
 * The built SPA as frontend/vite.config.ts (precompress) writes it: each text file with its .br and
 * .gz beside it. The local server sends the variant the browser accepts, as CloudFront does in AWS.
 */
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i % 37}`))};\n`;
const html = `<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body>${'<p>welcome</p>'.repeat(80)}</body></html>`;
const small = 'body{margin:0}';

describe('the local server sends the built assets precompressed', () => {
  let dir: string;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cp-static-'));
    mkdirSync(join(dir, 'assets'));
    for (const [name, body] of [
      ['index.html', html],
      ['assets/index-abc.js', script],
    ] as const) {
      writeFileSync(join(dir, name), body);
      writeFileSync(join(dir, `${name}.br`), brotliCompressSync(body));
      writeFileSync(join(dir, `${name}.gz`), gzipSync(body));
    }
    // Below CloudFront's 1,000 bytes: no compressed variants.
    writeFileSync(join(dir, 'assets/small-abc.css'), small);
    server = createLocalServer({ staticDir: dir });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
    rmSync(dir, { recursive: true, force: true });
  });

  /** The raw answer: fetch would decode the body and hide Content-Encoding. */
  const get = (path: string, acceptEncoding?: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
      (done, fail) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path,
            headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
          },
        );
        req.on('error', fail);
        req.end();
      },
    );
  const decode = (encoding: unknown, body: Buffer) =>
    encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip', 'gzip'],
    ['identity', undefined],
    [undefined, undefined],
  ])('a hashed script with Accept-Encoding %s is sent as %s, cached for good', async (accept, encoding) => {
    const res = await get('/assets/index-abc.js', accept);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(res.headers['content-encoding'], res.body).toString()).toBe(script);
    if (encoding) expect(res.body.length).toBeLessThan(Buffer.byteLength(script));
  });

  it.each(['/', '/dashboard'])('index.html at %s is compressed too and revalidated on each use', async (path) => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const res = await get(path, accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(decode(res.headers['content-encoding'], res.body).toString()).toBe(html);
    }
  });

  it('a file without compressed variants is sent as it is', async () => {
    const res = await get('/assets/small-abc.css', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(small);
  });

  it('a rebuild while the server runs is served: new chunks are found, removed ones are no crash', async () => {
    writeFileSync(join(dir, 'assets/rebuilt-def.js'), script);
    writeFileSync(join(dir, 'assets/rebuilt-def.js.br'), brotliCompressSync(script));
    rmSync(join(dir, 'assets/index-abc.js.br'));
    const rebuilt = await get('/assets/rebuilt-def.js', 'br');
    expect(rebuilt.status).toBe(200);
    expect(decode(rebuilt.headers['content-encoding'], rebuilt.body).toString()).toBe(script);
    const old = await get('/assets/index-abc.js', 'br');
    expect(old.status).toBe(200);
    expect(decode(old.headers['content-encoding'], old.body).toString()).toBe(script);
  });
});
