/**
 * Signed webhook delivery (e.g. a Zapier/Make "catch hook"): the `linkedin.published` payload after a LinkedIn
 * post, and the domain events for automation (functions/src/domain/automation-events.ts, README Events for automation).
 *
 * Request: `POST <url>` with the JSON payload as body and the headers
 *   content-type:        application/json
 *   x-webhook-timestamp: <unix time in seconds when the request was signed>
 *   x-webhook-signature: sha256=<lower-case hex HMAC-SHA256(secret, `${timestamp}.${body}`)>
 *
 * How a receiver verifies it (verifyWebhookSignature() does exactly this):
 *   1. take the raw request body as received (before any JSON parsing/re-serialising),
 *   2. compute HMAC-SHA256 with the shared secret over the UTF-8 string `${timestamp}.${body}`,
 *   3. compare `sha256=<hex>` with x-webhook-signature in constant time,
 *   4. reject timestamps more than 5 minutes away from its own clock (replay protection; the
 *      timestamp is part of the signed string, so it cannot be changed without the secret).
 * When the secret is empty no signature header is sent (an HMAC with an empty key proves nothing).
 *
 * The URL is user-given, so it goes through fetchChecked(): http(s) only and, unless
 * allowPrivateUrls, no private/loopback/link-local address. Redirects are not followed for POST.
 * deliver() never throws: it returns {ok, status?, error?}; ok means a 2xx answer.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { IntegrationError, type WebhookDelivery } from '../../domain/integrations.js';
import { fetchChecked } from './url-safety.js';

export const WEBHOOK_SIGNATURE_HEADER = 'x-webhook-signature';
export const WEBHOOK_TIMESTAMP_HEADER = 'x-webhook-timestamp';
/** How far a timestamp may be from the receiver's clock (seconds). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface HttpWebhookDeliveryOptions {
  /** true locally (ALLOW_PRIVATE_URLS=1), false in AWS. */
  allowPrivateUrls: boolean;
  /** Whole request (default 5 000 ms). */
  timeoutMs?: number;
  /** Clock for the timestamp (tests). */
  now?: () => Date;
}

/** `sha256=<hex HMAC-SHA256(secret, `${timestamp}.${body}`)>`. */
export function signWebhook(secret: string, timestamp: number | string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

/**
 * true when `signature` is signWebhook(secret, timestamp, body) and the timestamp is within
 * `toleranceSeconds` of `now` (default 300 s). Constant-time comparison.
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: number | string | undefined,
  body: string,
  signature: string | undefined,
  options: { toleranceSeconds?: number; now?: Date } = {},
): boolean {
  if (!secret || timestamp === undefined || !signature) return false;
  const seconds =
    typeof timestamp === 'number' ? timestamp : /^\d{1,12}$/.test(timestamp.trim()) ? Number(timestamp.trim()) : NaN;
  if (!Number.isFinite(seconds)) return false;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - seconds) > (options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(signWebhook(secret, seconds, body), 'utf8');
  const given = Buffer.from(signature.trim(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export class HttpWebhookDelivery implements WebhookDelivery {
  private readonly allowPrivate: boolean;
  private readonly timeoutMs: number;
  private readonly now: () => Date;

  constructor(options: HttpWebhookDeliveryOptions) {
    this.allowPrivate = options.allowPrivateUrls;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.now = options.now ?? (() => new Date());
  }

  async deliver(
    url: string,
    secret: string,
    payload: unknown,
    options: { timeoutMs?: number } = {},
  ): Promise<{ ok: boolean; status?: number; error?: string }> {
    // A publish hands on what is left of its deadline (PublishingService): never more than our own timeout.
    const timeoutMs = Math.min(this.timeoutMs, options.timeoutMs ?? this.timeoutMs);
    try {
      const body = JSON.stringify(payload ?? null);
      const timestamp = Math.floor(this.now().getTime() / 1000);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
        ...(secret ? { [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, timestamp, body) } : {}),
      };
      const { response } = await fetchChecked(
        url.trim(),
        { method: 'POST', headers, body },
        { allowPrivate: this.allowPrivate, timeoutMs },
      );
      await response.body?.cancel().catch(() => undefined);
      const { status } = response;
      if (status >= 200 && status < 300) return { ok: true, status };
      if (status >= 300 && status < 400) {
        const location = response.headers.get('location');
        return {
          ok: false,
          status,
          error: `The webhook redirected (HTTP ${status}${location ? ` to ${safeOrigin(location, url)}` : ''}). Enter the final webhook address.`,
        };
      }
      return { ok: false, status, error: `The webhook answered HTTP ${status}.` };
    } catch (error) {
      if (error instanceof IntegrationError) return { ok: false, error: error.message };
      return { ok: false, error: `The webhook could not be called: ${(error as Error)?.message ?? String(error)}` };
    }
  }
}

/** Scheme, host and path of a redirect target (no query: it may carry tokens). */
function safeOrigin(location: string, base: string): string {
  try {
    const target = new URL(location, base);
    return `${target.protocol}//${target.host}${target.pathname}`;
  } catch {
    return 'another address';
  }
}
