import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { SECURITY_HEADERS, contentSecurityPolicy } from '../../src/http/security-headers.js';
import { startLocalStack, type LocalStack } from '../../src/local/stack.js';

/** What the CloudFront response-headers policy adds to every answer (infra/lib/site.ts, infra/test/security-headers.test.ts). */
const deployedWith = (uploadOrigin: string) => ({
  'content-security-policy': contentSecurityPolicy(uploadOrigin),
  'x-frame-options': SECURITY_HEADERS.frameOptions,
  'referrer-policy': SECURITY_HEADERS.referrerPolicy,
  'x-content-type-options': SECURITY_HEADERS.contentTypeOptions,
  'permissions-policy': SECURITY_HEADERS.permissionsPolicy,
});
let deployed: ReturnType<typeof deployedWith>;

describe('the local server sends the deployed security headers', () => {
  let stack: LocalStack;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cp-headers-'));
    const dist = join(dataDir, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><div id="root"></div><script type="module" src="/assets/index-abc.js"></script>',
    );
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log("app")');
    delete process.env.PUBLIC_URL;
    stack = await startLocalStack({
      port: 0,
      dataDir,
      dynamoEndpoint: inject('dynamoEndpoint'),
      tableName: `headers-${randomBytes(4).toString('hex')}`,
      staticDir: dist,
    });
    // Locally the browser posts uploaded images to the embedded store (as to the images bucket in AWS).
    deployed = deployedWith(stack.s3Endpoint);
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const headersOf = async (path: string) => {
    const res = await fetch(`${stack.url}${path}`);
    await res.arrayBuffer();
    return {
      status: res.status,
      headers: Object.fromEntries(Object.keys(deployed).map((name) => [name, res.headers.get(name)])),
      all: res.headers,
    };
  };

  it('the shared CSP forbids framing and inline scripts', () => {
    for (const policy of [contentSecurityPolicy(), contentSecurityPolicy(stack.s3Endpoint)]) {
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    }
  });

  it('lets the page connect to its own origin and the upload store only', () => {
    expect(contentSecurityPolicy()).toContain("connect-src 'self';");
    expect(deployed['content-security-policy']).toContain(`connect-src 'self' ${stack.s3Endpoint};`);
    expect(stack.s3Endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each(['/', '/dashboard', '/assets/index-abc.js'])('on the SPA: %s', async (path) => {
    const { status, headers } = await headersOf(path);
    expect(status).toBe(200);
    expect(headers).toEqual(deployed);
  });

  it('on API answers too, over the handler values (as CloudFront overrides them), keeping the others of middy', async () => {
    const me = await headersOf('/api/articles');
    expect(me.status).toBe(401);
    expect(me.headers).toEqual(deployed);
    expect(me.all.get('strict-transport-security')).toMatch(/max-age=/); // middy's, through the Lambda handler
    // A path of no route is answered by the local server itself (API Gateway's 404 in AWS).
    const none = await headersOf('/api/no-such-route');
    expect(none.status).toBe(404);
    expect(none.headers).toEqual(deployed);
  });
});
