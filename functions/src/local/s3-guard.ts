/**
 * What the local store (s3rver) does not check itself, checked the way S3 does before a request reaches
 * it: s3rver takes any request without a signature, accepts any Signature V4 unverified, and ignores a
 * presigned POST's policy (one user's form could write into another user's folder). The guard lets through
 * only requests signed with the store's secret (the app's own SDK calls) and browser uploads whose
 * signed policy holds (bucket, key, type, size, expiry).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface StoreCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Why a request is refused, as S3 answers it. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** S3 refuses a signature made more than 15 minutes from its clock. */
const MAX_SKEW_MS = 15 * 60_000;

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The time of an X-Amz-Date value (20250102T030405Z), or NaN. */
function amzTime(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
}

/** RFC 3986 encoding, as Signature V4 canonicalizes query strings. */
const encodeRfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return '';
  const pairs = rawQuery
    .split('&')
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf('=');
      const [key, value] = at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
      return [encodeRfc3986(decodeURIComponent(key)), encodeRfc3986(decodeURIComponent(value))] as const;
    });
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

const denied = (message: string): Refusal => ({ status: 403, code: 'AccessDenied', message });

/**
 * Checks a request signed in its Authorization header (Signature V4, as the AWS SDK signs): the key id,
 * the date, and the signature over the method, path, query and signed headers. The payload's hash is
 * taken from x-amz-content-sha256 as signed (the store is on loopback: nobody can alter a body in transit).
 */
export function checkSignedRequest(
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined> },
  credentials: StoreCredentials,
  now = Date.now(),
): Refusal | undefined {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const authorization = header('authorization') ?? '';
  const m = /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/.exec(
    authorization.trim(),
  );
  if (!m) return denied('Requests to this store must be signed (Signature Version 4) with its credentials.');
  const [, credential, signedHeaders, signature] = m as unknown as [string, string, string, string];
  const [keyId, date, region, service, terminator] = credential.split('/');
  if (keyId !== credentials.accessKeyId || !date || !region || service !== 's3' || terminator !== 'aws4_request')
    return denied('The AWS Access Key Id you provided does not exist in our records.');
  const amzDate = header('x-amz-date') ?? '';
  const at = amzTime(amzDate);
  if (!amzDate.startsWith(date) || !(Math.abs(now - at) <= MAX_SKEW_MS))
    return denied('The difference between the request time and the current time is too large.');
  const payloadHash = header('x-amz-content-sha256');
  if (!payloadHash) return denied('Missing required header for this request: x-amz-content-sha256');
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return denied('Host and date must be signed.');
  const [path = '/', query = ''] = request.url.split(/\?(.*)/s);
  let canonical: string;
  try {
    canonical = [
      request.method,
      path,
      canonicalQuery(query),
      ...names.map((name) => `${name}:${(header(name) ?? '').trim().replace(/\s+/g, ' ')}`),
      '',
      signedHeaders,
      payloadHash,
    ].join('\n');
  } catch {
    return denied('The request is not well formed.');
  }
  const stringToSign = [ALGORITHM, amzDate, `${date}/${region}/s3/aws4_request`, sha256Hex(canonical)].join('\n');
  const expected = hmac(signingKey(credentials.secretAccessKey, date, region, 's3'), stringToSign).toString('hex');
  return sameHex(expected, signature)
    ? undefined
    : denied('The request signature we calculated does not match the signature you provided.');
}

/** The fields of a browser's POST upload (names as S3 compares them: case-insensitively) and its file. */
export interface PostForm {
  fields: Map<string, string>;
  /** The form fields' names in the order sent, the file last (S3 ignores anything after it). */
  order: string[];
  file?: { size: number };
}

type Condition = Record<string, string> | [string, ...unknown[]];

/**
 * Checks a presigned POST as S3 does: signed with the store's secret, not expired, every condition of its
 * policy met by the form (bucket, key, Content-Type, the file's size range), and no form field the policy
 * does not name.
 */
export function checkPostPolicy(
  form: PostForm,
  bucket: string,
  credentials: StoreCredentials,
  now = Date.now(),
): Refusal | undefined {
  const field = (name: string) => (name === 'bucket' ? bucket : form.fields.get(name));
  const policy64 = form.fields.get('policy');
  const signature = form.fields.get('x-amz-signature');
  const credential = form.fields.get('x-amz-credential') ?? '';
  if (!policy64 || !signature || form.fields.get('x-amz-algorithm') !== ALGORITHM)
    return denied('Uploads to this store need a signed policy (a presigned POST).');
  if (!form.file || form.order.at(-1) !== 'file')
    return { status: 400, code: 'InvalidArgument', message: 'POST requires exactly one file upload, last.' };
  const [keyId, date, region, service, terminator] = credential.split('/');
  if (keyId !== credentials.accessKeyId || !date || !region || service !== 's3' || terminator !== 'aws4_request')
    return denied('The AWS Access Key Id you provided does not exist in our records.');
  const expected = hmac(signingKey(credentials.secretAccessKey, date, region, 's3'), policy64).toString('hex');
  if (!sameHex(expected, signature.toLowerCase()))
    return denied('The request signature we calculated does not match the signature you provided.');
  let policy: { expiration?: unknown; conditions?: unknown };
  try {
    policy = JSON.parse(Buffer.from(policy64, 'base64').toString('utf8')) as typeof policy;
  } catch {
    return denied('Invalid Policy: Invalid JSON.');
  }
  const expiration = typeof policy.expiration === 'string' ? Date.parse(policy.expiration) : NaN;
  if (!(expiration > now)) return denied('Invalid according to Policy: Policy expired.');
  if (!Array.isArray(policy.conditions)) return denied('Invalid Policy: no conditions.');
  const named = new Set<string>();
  for (const condition of policy.conditions as Condition[]) {
    const failed = denied(`Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`);
    if (Array.isArray(condition)) {
      const [op, target, value] = condition;
      if (op === 'content-length-range') {
        const [min, max] = [Number(target), Number(value)];
        if (form.file.size > max)
          return {
            status: 400,
            code: 'EntityTooLarge',
            message: 'Your proposed upload exceeds the maximum allowed size',
          };
        if (form.file.size < min)
          return {
            status: 400,
            code: 'EntityTooSmall',
            message: 'Your proposed upload is smaller than the minimum allowed size',
          };
        continue;
      }
      if (typeof target !== 'string' || !target.startsWith('$') || typeof value !== 'string') return failed;
      const name = target.slice(1).toLowerCase();
      named.add(name);
      const actual = field(name);
      if (op === 'eq' && actual !== value) return failed;
      if (op === 'starts-with' && !(actual ?? '').startsWith(value)) return failed;
      if (op !== 'eq' && op !== 'starts-with') return failed;
    } else if (condition && typeof condition === 'object') {
      for (const [name, value] of Object.entries(condition)) {
        named.add(name.toLowerCase());
        if (field(name.toLowerCase()) !== value) return failed;
      }
    } else {
      return failed;
    }
  }
  for (const name of form.order) {
    if (name === 'file' || name === 'policy' || name === 'x-amz-signature' || name.startsWith('x-ignore-')) continue;
    if (!named.has(name)) return denied(`Invalid according to Policy: Extra input fields: ${name}`);
  }
  return undefined;
}
