/**
 * Mail: an RFC 5322 / MIME builder, the Gmail API sender (docs/integrations.md, Google) and a local outbox
 * that writes .eml files (used when Gmail is not configured, docs/architecture.md).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OAuth2Client } from 'google-auth-library';
import { createOAuth2Client } from './google-auth.js';
import { IntegrationError, type MailMessage, type MailSender } from '../../domain/integrations.js';
import { googleError, googleOAuthEndpoints } from './google.js';
import { MAIL_SEND_BUDGET_MS } from '../../time-budgets.js';

const CRLF = '\r\n';

export interface MimeOptions {
  /** Default: now. */
  date?: Date;
  /** Without angle brackets; default a random UUID at the sender's domain. */
  messageId?: string;
  /** Default: a random boundary that cannot occur in base64 text. */
  boundary?: string;
}

/**
 * The message as RFC 5322 text with CRLF line endings: From (when given; Gmail fills in the
 * account's address when it is missing), To, Subject as UTF-8 encoded-words, Date, Message-ID,
 * MIME-Version, and a multipart/alternative body with text/plain then text/html parts, both
 * UTF-8 and base64. Throws IntegrationError 'mail_invalid_address' for line breaks in addresses.
 */
export function buildMimeMessage(msg: MailMessage, options: MimeOptions = {}): string {
  const boundary = options.boundary ?? `=_alt_${randomBytes(12).toString('hex')}`;
  const from = msg.from ? formatAddressList(msg.from, 'From') : undefined;
  const to = formatAddressList(msg.to, 'To');
  const domain = /@([^>\s]+)>?\s*$/.exec(msg.from ?? '')?.[1] ?? 'localhost';
  const messageId = options.messageId ?? `${randomUUID()}@${domain}`;
  const headers = [
    ...(from ? [`From: ${from}`] : []),
    `To: ${to}`,
    `Subject: ${encodeWords(msg.subject.replace(/[\r\n]+/g, ' '))}`,
    `Date: ${rfc5322Date(options.date ?? new Date())}`,
    `Message-ID: <${messageId}>`,
    'MIME-Version: 1.0',
  ];
  const part = (type: string, body: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${type}; charset=utf-8`,
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(body),
    ].join(CRLF);
  const alternative = [part('text/plain', msg.text), part('text/html', msg.html), `--${boundary}--`];
  const inline = msg.inline ?? [];
  if (!inline.length) {
    return [
      ...headers,
      `Content-Type: multipart/alternative; boundary="${boundary}"`,
      '',
      'This is a multipart message in MIME format.',
      ...alternative,
      '',
    ].join(CRLF);
  }
  // Inline images: multipart/related around the alternative body, each image found by its Content-ID.
  const related = `${boundary}_rel`;
  const safe = (v: string) => v.replace(/[^A-Za-z0-9._@-]/g, '_');
  const images = inline.map((img) =>
    [
      `--${related}`,
      `Content-Type: ${img.contentType}; name="${safe(img.filename)}"`,
      'Content-Transfer-Encoding: base64',
      `Content-ID: <${safe(img.cid)}>`,
      `Content-Disposition: inline; filename="${safe(img.filename)}"`,
      '',
      (img.content.toString('base64').match(/.{1,76}/g) ?? ['']).join(CRLF),
    ].join(CRLF),
  );
  return [
    ...headers,
    `Content-Type: multipart/related; boundary="${related}"`,
    '',
    'This is a multipart message in MIME format.',
    `--${related}`,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    ...alternative,
    ...images,
    `--${related}--`,
    '',
  ].join(CRLF);
}

/** base64url without padding, as Gmail's `raw` expects. */
export function base64Url(text: string | Buffer): string {
  return Buffer.from(text).toString('base64url');
}

/**
 * RFC 2047 encoded-words (`=?utf-8?B?…?=`), split so each word stays under 75 characters (and a
 * "Subject: " line under 78) and no UTF-8 sequence is cut; words are joined by folding
 * whitespace, which decoders drop.
 */
export function encodeWords(text: string): string {
  if (text === '') return '';
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    if (Buffer.byteLength(chunk + char, 'utf8') > 42) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?utf-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`).join(`${CRLF} `);
}

/** "a@x.org, Name <b@y.org>" with non-ASCII display names encoded; refuses header injection. */
function formatAddressList(value: string, header: string): string {
  if (/[\r\n]/.test(value))
    throw new IntegrationError(`The ${header} address contains a line break.`, 'mail_invalid_address');
  const list = splitAddresses(value).map((entry) => {
    const match = /^(.*?)\s*<([^<>]+)>$/.exec(entry);
    if (!match) return entry;
    const name = match[1]!.replace(/^"(.*)"$/, '$1').trim();
    const address = match[2]!.trim();
    if (!name) return `<${address}>`;
    // eslint-disable-next-line no-control-regex
    if (/[^\x00-\x7f]/.test(name)) return `${encodeWords(name)} <${address}>`;
    if (/[()<>@,;:\\".[\]]/.test(name)) return `"${name.replace(/(["\\])/g, '\\$1')}" <${address}>`;
    return `${name} <${address}>`;
  });
  if (list.length === 0 || list.some((a) => !a.includes('@'))) {
    throw new IntegrationError(`The ${header} address "${value}" is not an e-mail address.`, 'mail_invalid_address');
  }
  return list.join(', ');
}

function splitAddresses(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let angle = false;
  for (const char of value) {
    if (char === '"') quoted = !quoted;
    else if (char === '<' && !quoted) angle = true;
    else if (char === '>' && !quoted) angle = false;
    if (char === ',' && !quoted && !angle) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

function base64Lines(text: string): string {
  return (
    Buffer.from(text, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? ['']
  ).join(CRLF);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Tue, 01 Jul 2025 09:05:00 +0000" */
export function rfc5322Date(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${two(
    date.getUTCHours(),
  )}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

export interface GmailSenderOptions {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** Default From header; Gmail uses the account's own address when neither this nor the message sets one. */
  from?: string;
  /** GOOGLE_API_URL, used as the API's rootUrl. */
  apiUrl?: string;
  /** GOOGLE_OAUTH_URL: the token endpoint becomes `${oauthUrl}/token`. */
  oauthUrl?: string;
  /** Per request (default 20 000 ms). */
  timeoutMs?: number;
  /**
   * One send as a whole: the access-token refresh (which the library retries by itself) and the
   * send (default MAIL_SEND_BUDGET_MS), so an approval e-mail ends within the worker's timeout.
   */
  budgetMs?: number;
}

/** Sends through the Gmail API as the user who granted gmail.send; access tokens are refreshed by the library. */
export class GmailSender implements MailSender {
  readonly kind = 'gmail' as const;
  private readonly client: Promise<OAuth2Client>;
  private readonly sendUrl: string;
  private readonly timeoutMs: number;
  private readonly budgetMs: number;
  private readonly from: string | undefined;

  constructor(options: GmailSenderOptions) {
    const endpoints = googleOAuthEndpoints(options.oauthUrl);
    // google-auth-library alone (refreshing the access token, authorised requests) instead of the
    // generated @googleapis/gmail client keeps the worker bundle small: one REST call is all we use.
    this.client = createOAuth2Client({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      ...(endpoints ? { endpoints } : {}),
    }).then((client) => {
      client.setCredentials({ refresh_token: options.refreshToken });
      return client;
    });
    this.sendUrl = `${(options.apiUrl ?? 'https://gmail.googleapis.com').replace(/\/+$/, '')}/gmail/v1/users/me/messages/send`;
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.budgetMs = options.budgetMs ?? MAIL_SEND_BUDGET_MS;
    this.from = options.from;
  }

  async send(message: MailMessage): Promise<{ id: string }> {
    const seconds = Math.max(1, Math.round(this.budgetMs / 1000));
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new IntegrationError(
              `Gmail did not answer within ${seconds} second${seconds === 1 ? '' : 's'}. Try again later.`,
              'gmail_timeout',
            ),
          ),
        this.budgetMs,
      );
    });
    try {
      return await Promise.race([this.sendOnce(message), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async sendOnce(message: MailMessage): Promise<{ id: string }> {
    const from = message.from ?? this.from;
    const raw = base64Url(buildMimeMessage({ ...message, ...(from ? { from } : {}) }));
    try {
      const res = await (
        await this.client
      ).request<{ id?: string }>({ url: this.sendUrl, method: 'POST', data: { raw }, timeout: this.timeoutMs });
      if (!res.data.id)
        throw new IntegrationError('Gmail accepted the message but returned no id.', 'gmail_error', res.status);
      return { id: res.data.id };
    } catch (error) {
      if (error instanceof IntegrationError) throw error;
      throw googleError(error, 'gmail');
    }
  }
}

export interface OutboxSenderOptions {
  directory: string;
  /** From header when the message has none (default "Content Publisher <no-reply@localhost>"). */
  from?: string;
}

/**
 * Writes each message as `<ISO timestamp>-<random>.eml` into a directory (created on first use).
 * The file is written under a `.part` name and renamed, so whoever watches the folder (a mail
 * client, a test, a person) never reads half a message.
 */
export class OutboxSender implements MailSender {
  readonly kind = 'outbox' as const;
  readonly directory: string;
  private readonly from: string;

  constructor(options: OutboxSenderOptions | string) {
    const opts = typeof options === 'string' ? { directory: options } : options;
    this.directory = opts.directory;
    this.from = opts.from ?? 'Content Publisher <no-reply@localhost>';
  }

  async send(message: MailMessage): Promise<{ id: string }> {
    // A mail carries a bearer approval link: readable by this user only.
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    // colons are not allowed in Windows file names
    const stamp = new Date().toISOString().replace(/:/g, '-');
    const filename = `${stamp}-${randomBytes(4).toString('hex')}.eml`;
    const partial = join(this.directory, `${filename}.part`);
    await writeFile(partial, buildMimeMessage({ ...message, from: message.from ?? this.from }), {
      flag: 'wx',
      mode: 0o600,
    });
    await rename(partial, join(this.directory, filename));
    return { id: filename };
  }
}
