import { readdir, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** The text files CloudFront compresses (it leaves files under 1,000 bytes as they are). */
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|webmanifest|txt|xml)$/;
const MIN_COMPRESS_BYTES = 1000;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `<file>.br` and `<file>.gz` beside each compressible file of the build, at the highest
 * levels, for the local server to send by Accept-Encoding (functions/src/local/server.ts), as
 * CloudFront compresses in AWS. A variant that would not be smaller is left out.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = isAbsolute(config.build.outDir) ? config.build.outDir : join(config.root, config.build.outDir);
    },
    // After the public folder is copied too (favicon, …).
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const path = join(outDir, name);
          const body = await readFile(path);
          if (body.length < MIN_COMPRESS_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(body, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
            gzipAsync(body, { level: zlib.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < body.length) await writeFile(`${path}.br`, br);
          if (gz.length < body.length) await writeFile(`${path}.gz`, gz);
        }),
      );
    },
  };
}
