import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpWebhookDelivery, signWebhook, verifyWebhookSignature } from '../../src/adapters/integrations/webhook.js';
import { closedPort } from '../integrations/helpers.js';
import { serve } from './helpers.js';

const SECRET = 'whsec_test_0123456789';
const payload = {
  event: 'linkedin.published',
  articleId: 'a1',
  title: 'Grüße (1)',
  postUrl: 'https://www.linkedin.com/feed/update/urn:li:share:1',
};
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function receiver(status = 200) {
  const server = await serve((_req, res) => {
    res.writeHead(status, { 'Content-Length': 0 });
    res.end();
  });
  servers.push(server);
  return server;
}

describe('HttpWebhookDelivery', () => {
  it('POSTs the JSON payload signed with HMAC-SHA256 over "timestamp.body"; the receiver verifies it', async () => {
    const hook = await receiver();
    const delivery = new HttpWebhookDelivery({ allowPrivateUrls: true });
    const before = Math.floor(Date.now() / 1000);
    const result = await delivery.deliver(`${hook.url}/hooks/catch/1/abc/`, SECRET, payload);
    expect(result).toEqual({ ok: true, status: 200 });

    expect(hook.received).toHaveLength(1);
    const request = hook.received[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/catch/1/abc/');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual(payload);

    const timestamp = request.headers['x-webhook-timestamp'] as string;
    expect(Number(timestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(timestamp)).toBeLessThanOrEqual(before + 5);
    const signature = request.headers['x-webhook-signature'] as string;
    // independent of signWebhook: the documented scheme
    expect(signature).toBe(
      `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${request.body}`).digest('hex')}`,
    );
    expect(verifyWebhookSignature(SECRET, timestamp, request.body, signature)).toBe(true);

    expect(verifyWebhookSignature('other secret', timestamp, request.body, signature)).toBe(false);
    expect(verifyWebhookSignature(SECRET, timestamp, request.body.replace('a1', 'a2'), signature)).toBe(false);
    expect(verifyWebhookSignature(SECRET, String(Number(timestamp) + 1), request.body, signature)).toBe(false);
    expect(verifyWebhookSignature(SECRET, timestamp, request.body, undefined)).toBe(false);
  });

  it('verifyWebhookSignature rejects stale timestamps (replay)', () => {
    const body = '{"a":1}';
    const signature = signWebhook(SECRET, 1_700_000_000, body);
    expect(verifyWebhookSignature(SECRET, '1700000000', body, signature, { now: new Date(1_700_000_100_000) })).toBe(
      true,
    );
    expect(verifyWebhookSignature(SECRET, '1700000000', body, signature, { now: new Date(1_700_000_400_000) })).toBe(
      false,
    );
    expect(verifyWebhookSignature(SECRET, 'abc', body, signature)).toBe(false);
  });

  it('uses the injected clock for the timestamp', async () => {
    const hook = await receiver();
    const delivery = new HttpWebhookDelivery({ allowPrivateUrls: true, now: () => new Date(1_700_000_000_000) });
    await delivery.deliver(hook.url, SECRET, { x: 1 });
    const request = hook.received[0]!;
    expect(request.headers['x-webhook-timestamp']).toBe('1700000000');
    expect(request.headers['x-webhook-signature']).toBe(signWebhook(SECRET, 1_700_000_000, '{"x":1}'));
  });

  it('a non-2xx answer is ok:false with the status', async () => {
    const hook = await receiver(500);
    expect(await new HttpWebhookDelivery({ allowPrivateUrls: true }).deliver(hook.url, SECRET, payload)).toEqual({
      ok: false,
      status: 500,
      error: 'The webhook answered HTTP 500.',
    });
  });

  it('a receiver that is down gives ok:false without throwing', async () => {
    const result = await new HttpWebhookDelivery({ allowPrivateUrls: true }).deliver(
      `http://127.0.0.1:${await closedPort()}/hook`,
      SECRET,
      payload,
    );
    expect(result.ok).toBe(false);
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/refused the connection/);
  });

  it('a receiver that never answers times out with ok:false', async () => {
    const silent = await serve(() => undefined);
    servers.push(silent);
    const result = await new HttpWebhookDelivery({ allowPrivateUrls: true, timeoutMs: 200 }).deliver(
      silent.url,
      SECRET,
      payload,
    );
    expect(result).toMatchObject({ ok: false });
    expect(result.error).toMatch(/did not answer/);
  });

  it('refuses private addresses when allowPrivateUrls is false, and non-http schemes always', async () => {
    const hook = await receiver();
    const strict = new HttpWebhookDelivery({ allowPrivateUrls: false });
    const result = await strict.deliver(hook.url, SECRET, payload);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/private or local network address/);
    expect((await strict.deliver('http://169.254.169.254/latest/meta-data', SECRET, payload)).ok).toBe(false);
    expect(hook.received).toHaveLength(0);

    const lax = new HttpWebhookDelivery({ allowPrivateUrls: true });
    expect((await lax.deliver('file:///etc/passwd', SECRET, payload)).error).toMatch(/http/);
    expect((await lax.deliver('not a url', SECRET, payload)).ok).toBe(false);
  });

  it('never throws, even for a payload that cannot be serialised', async () => {
    const result = await new HttpWebhookDelivery({ allowPrivateUrls: true }).deliver('http://127.0.0.1:1/', SECRET, {
      n: 1n,
    });
    expect(result.ok).toBe(false);
    expect(result.error).toBeTruthy();
  });
});
