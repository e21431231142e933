import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { logger } from '../logger.js';
import { LOOPBACK } from './ports.js';
import { checkPostPolicy, checkSignedRequest, type PostForm, type Refusal, type StoreCredentials } from './s3-guard.js';

export interface LocalS3 {
  /** The store's address (loopback): the app's S3 client and the browser's uploads go here. */
  endpoint: string;
  /** What requests must be signed with: s3rver's key id and a secret made for this run. */
  credentials: StoreCredentials;
  /**
   * Lets pages of these origins post uploads to the bucket (its CORS rule, as the images bucket has in AWS:
   * infra/lib/content-publisher-stack.ts).
   */
  allowBrowserUploads(bucket: string, origins: string[]): Promise<void>;
  stop(): Promise<void>;
}

/** A form larger than this is refused unread: far above any policy the app signs (15 MB, shared/src/images.ts). */
const MAX_FORM_BYTES = 32 * 1024 * 1024;

const xmlEscape = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/**
 * An S3-compatible store on loopback, reached with the real @aws-sdk/client-s3. s3rver itself listens on a
 * socket in a private folder (or a named pipe), which only this user can open; the port others can reach
 * is the guard's (s3-guard.ts), which passes on only requests signed with this run's secret and uploads
 * whose presigned policy holds.
 */
export async function startLocalS3(options: { directory: string; buckets: string[] }): Promise<LocalS3> {
  mkdirSync(options.directory, { recursive: true, mode: 0o700 });
  const credentials: StoreCredentials = {
    // s3rver knows this key id only; its secret is no longer s3rver's public one, and the guard checks it.
    accessKeyId: 'S3RVER',
    secretAccessKey: randomBytes(32).toString('base64url'),
  };
  const socketDir = process.platform === 'win32' ? undefined : mkdtempSync(join(tmpdir(), 'cp-s3-'));
  const socketPath = socketDir
    ? join(socketDir, 's3rver.sock')
    : `\\\\.\\pipe\\content-publisher-s3-${randomBytes(16).toString('hex')}`;
  const store = new S3rver({
    directory: options.directory,
    silent: true,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [] })),
  });
  await store.configureBuckets();
  const inner: Server = await store.listen(socketPath);

  const browserOrigins = new Set<string>();
  const corsFor = (req: IncomingMessage): Record<string, string> => {
    const origin = req.headers.origin;
    return origin && browserOrigins.has(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
  };
  const refuse = (req: IncomingMessage, res: ServerResponse, refusal: Refusal) => {
    const body =
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<Error><Code>${refusal.code}</Code><Message>${xmlEscape(refusal.message)}</Message></Error>`;
    res.writeHead(refusal.status, { 'content-type': 'application/xml', ...corsFor(req) });
    res.end(body);
    // A refused upload is not read to its end.
    res.once('finish', () => req.destroy());
  };
  let guardHost = '';
  const forward = (req: IncomingMessage, res: ServerResponse, body?: Buffer) => {
    const headers = { ...req.headers, host: guardHost };
    if (body) {
      delete headers['transfer-encoding'];
      headers['content-length'] = String(body.length);
    }
    const upstream = httpRequest({ socketPath, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      logger.error('Local S3 store failed', { error: err });
      if (!res.headersSent) refuse(req, res, { status: 500, code: 'InternalError', message: 'The store failed.' });
      else res.end();
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };

  const guard = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    // CORS preflight: answered by s3rver from the bucket's CORS rule; it reads and writes nothing.
    if (method === 'OPTIONS') return forward(req, res);
    const bucket = /^\/([^/?]+)\/?$/.exec(url)?.[1];
    if (method === 'POST' && bucket && /^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
      void checkedUpload(req, res, decodeURIComponent(bucket));
      return;
    }
    const refusal = checkSignedRequest({ method, url, headers: req.headers }, credentials);
    if (refusal) return refuse(req, res, refusal);
    forward(req, res);
  });

  async function checkedUpload(req: IncomingMessage, res: ServerResponse, bucket: string) {
    try {
      if (Number(req.headers['content-length'] ?? 0) > MAX_FORM_BYTES)
        return refuse(req, res, { status: 400, code: 'EntityTooLarge', message: 'The upload is too large.' });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > MAX_FORM_BYTES)
          return refuse(req, res, { status: 400, code: 'EntityTooLarge', message: 'The upload is too large.' });
        chunks.push(chunk as Buffer);
      }
      const body = Buffer.concat(chunks);
      const form = await parseForm(body, req.headers['content-type']!);
      if (!form)
        return refuse(req, res, { status: 400, code: 'MalformedPOSTRequest', message: 'The body is not a form.' });
      const refusal = checkPostPolicy(form, bucket, credentials);
      if (refusal) return refuse(req, res, refusal);
      forward(req, res, body);
    } catch (err) {
      logger.error('Local S3 upload check failed', { error: err as Error });
      if (!res.headersSent) refuse(req, res, { status: 500, code: 'InternalError', message: 'The store failed.' });
    }
  }

  await new Promise<void>((resolve, reject) => {
    guard.once('error', reject);
    // The app is its only other client; never another interface (HOST moves the app server only).
    guard.listen(0, LOOPBACK, () => resolve());
  });
  const port = (guard.address() as AddressInfo).port;
  guardHost = `${LOOPBACK}:${port}`;
  const endpoint = `http://${guardHost}`;
  const close = (server: Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    endpoint,
    credentials,
    async allowBrowserUploads(bucket, origins) {
      for (const origin of origins) browserOrigins.add(origin);
      const { S3Client, PutBucketCorsCommand } = await import('@aws-sdk/client-s3');
      const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
      try {
        await client.send(
          new PutBucketCorsCommand({
            Bucket: bucket,
            CORSConfiguration: {
              CORSRules: [
                { AllowedOrigins: origins, AllowedMethods: ['POST'], AllowedHeaders: ['*'], MaxAgeSeconds: 3000 },
              ],
            },
          }),
        );
      } finally {
        client.destroy();
      }
    },
    async stop() {
      await close(guard);
      await close(inner);
      if (socketDir) rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** The fields (names lower-cased, as S3 compares them) and the file of a multipart form; undefined if it is none. */
async function parseForm(body: Buffer, contentType: string): Promise<PostForm | undefined> {
  let data: FormData;
  try {
    data = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    return undefined;
  }
  const form: PostForm = { fields: new Map(), order: [] };
  for (const [name, value] of data.entries()) {
    const lower = name.toLowerCase();
    form.order.push(lower);
    if (typeof value === 'string') {
      if (lower === 'file') form.file = { size: Buffer.byteLength(value) };
      else form.fields.set(lower, value);
    } else if (lower === 'file') {
      form.file = { size: value.size };
    }
  }
  return form;
}
