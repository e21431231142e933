/**
 * Vitest setup file of the functions project: the secrets check (issue #8).
 *
 * - Captures every line written to process.stdout / process.stderr and through `console` in the
 *   test worker. Powertools JSON log lines are swallowed so the run stays quiet at DEBUG
 *   (`TEST_LOGS=1` prints them); anything else passes through.
 * - Records every response of our API (the origins of `startTestApp` / `Client`): headers and
 *   body, except our own `session` cookie in `set-cookie`, which carries the session token by design.
 * - Registers secrets: secret-looking request fields and the value of every non-public setting
 *   sent to our API, the session token, secret environment variables, secrets that a response
 *   issues once (e.g. a webhook signing secret; allowed in that response only), and what the fakes
 *   mint or accept (`trackSecret` in test/fakes).
 * - After each test file, fails the file if any recorded response or log line contains a secret,
 *   naming the secret's kind (masked) and where it appeared.
 *
 * `SECRETS_CHECK_STATS=<file>` appends one JSON line per test file with what was examined.
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { format } from 'node:util';
import { afterAll, expect } from 'vitest';
import { normalizeSettingKey } from '@app/shared';
import { PUBLIC_SETTING_KEYS } from '../../src/domain/settings.js';
import { SESSION_COOKIE } from '../../src/domain/sessions.js';
import { resetSecretsCheck, SecretsCheck, secretsCheck, trackSecret } from './secrets.js';

/** Field names whose values are secrets, in request bodies and in responses (a paging token is not one). */
export const SECRET_FIELD =
  /^(?!.*page_?token)(?!X-Amz-Credential$)(?=.*(pass(word)?|secret|token|api_?key|refresh|code_?verifier|credential|setup_?code))/i;
// X-Amz-Credential, a field of the presigned upload form (POST /api/image/upload/…), is the signer's access key
// id with its date and region scope: an identifier S3 needs beside the signature, not a secret (the secret
// access key never leaves the server; SECRET_ENV tracks it).
/** Environment variables that hold secrets (SESSION_SECRET, LOCAL_SECRETS_KEY, GOOGLE_CLIENT_SECRET, OPENAI_API_KEY, …). */
const SECRET_ENV = /(SECRET|PASSWORD|TOKEN|API_KEY|SECRETS_KEY|SECRET_ACCESS_KEY|SETUP_CODE)$/;

const INSTALLED = Symbol.for('content-publisher.secrets-check.installed');
const showLogs = process.env.TEST_LOGS === '1';

const currentTest = (): string | undefined => expect.getState().currentTestName;

function trackEnvSecrets(): void {
  for (const [name, value] of Object.entries(process.env))
    if (SECRET_ENV.test(name)) trackSecret(value, `environment variable ${name}`);
}

/** Visits every key/value pair of a JSON value, iteratively: request bodies may be nested very deep (bad-input suite). */
function walk(root: unknown, visit: (key: string, value: unknown) => void): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) for (const item of value) pending.push(item);
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        visit(key, item);
        pending.push(item);
      }
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Secret fields of a request body, and the value of a setting (every setting but the public ones is a secret). */
function trackRequestSecrets(method: string, url: URL, body: unknown): void {
  if (typeof body !== 'string') return;
  const json = parseJson(body);
  const call = `${method} ${url.pathname}`;
  walk(json, (key, value) => {
    if (SECRET_FIELD.test(key)) trackSecret(value, `"${key}" sent to ${call}`);
  });
  const setting = json as { key?: unknown; value?: unknown } | undefined;
  if (method === 'POST' && url.pathname === '/api/settings' && typeof setting?.key === 'string') {
    if (!PUBLIC_SETTING_KEYS.has(normalizeSettingKey(setting.key)))
      trackSecret(setting.value, `value of the setting "${setting.key}"`);
  }
}

/** Secrets that a response hands out (shown once on purpose): new secrets, allowed in this response only. */
function issuedSecrets(check: SecretsCheck, json: unknown, call: string): Set<string> {
  const issued = new Set<string>();
  walk(json, (key, value) => {
    if (!SECRET_FIELD.test(key) || typeof value !== 'string' || value.includes('•') || check.isSecret(value)) return;
    check.track(value, `"${key}" issued by ${call}`);
    if (check.isSecret(value)) issued.add(value);
  });
  return issued;
}

async function recordApiResponse(
  check: SecretsCheck,
  method: string,
  url: URL,
  res: Response,
  test: string | undefined,
) {
  const call = `${method} ${url.pathname} → ${res.status}`;
  const headers: string[] = [];
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.push(`${name}: ${value}`);
  });
  for (const cookie of res.headers.getSetCookie()) {
    const pair = cookie.split(';')[0]!;
    const name = pair.slice(0, pair.indexOf('=')).trim();
    if (name === SESSION_COOKIE) {
      check.track(pair.slice(pair.indexOf('=') + 1), 'session token (our session cookie)');
      continue;
    }
    headers.push(`set-cookie: ${cookie}`);
  }
  check.recordResponse({ where: `response headers of ${call}`, text: headers.join('\n'), test });
  if (/^(image|audio|video)\/|octet-stream/.test(res.headers.get('content-type') ?? '')) return;
  const text = await res.text();
  check.recordResponse({
    where: `response body of ${call}`,
    text,
    test,
    allow: issuedSecrets(check, parseJson(text), call),
  });
}

/** Records our API's responses, whoever calls fetch (Client.call, completeOAuth, raw fetch in a test). */
function wrapFetch(): void {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async function fetchAndRecord(
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> {
    const check = secretsCheck();
    const url = new URL(input instanceof Request ? input.url : input);
    if (!check.apiOrigins.has(url.origin)) return realFetch(input, init);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const test = currentTest();
    trackEnvSecrets();
    trackRequestSecrets(method, url, init?.body);
    const res = await realFetch(input, init);
    check.counts.responses++;
    const recording = recordApiResponse(check, method, url, res.clone(), test)
      .catch(() => undefined) // a body the test aborted: nothing to check
      .finally(() => check.pending.delete(recording));
    check.pending.add(recording);
    return res;
  };
}

interface PowertoolsLine {
  level?: unknown;
  message?: unknown;
  timestamp?: unknown;
}

/**
 * A Powertools Logger line (a JSON object with level, message and timestamp), or a Powertools
 * Metrics EMF line (`_aws.CloudWatchMetrics`; printed only where metrics are on, src/metrics.ts).
 */
function powertoolsLine(line: string): PowertoolsLine | undefined {
  if (!line.startsWith('{')) return undefined;
  const json = parseJson(line) as
    (PowertoolsLine & { _aws?: { CloudWatchMetrics?: unknown; Timestamp?: unknown } }) | undefined;
  if (json && Array.isArray(json._aws?.CloudWatchMetrics))
    return { level: 'METRICS', message: 'EMF', timestamp: json._aws.Timestamp };
  return json && typeof json.level === 'string' && 'message' in json && 'timestamp' in json ? json : undefined;
}

function recordLines(text: string, source: string): boolean {
  const check = secretsCheck();
  const test = currentTest();
  let onlyLogs = true;
  let any = false;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    any = true;
    const log = powertoolsLine(line);
    if (!log) onlyLogs = false;
    const where = log
      ? `log line (${String(log.level)} ${JSON.stringify(String(log.message)).slice(0, 80)}) on ${source}`
      : `output line on ${source}`;
    check.recordLog({ where, text: line, test });
  }
  return any && onlyLogs;
}

/** Every line written to stdout/stderr is recorded; Powertools log lines are swallowed unless TEST_LOGS=1. */
function wrapStream(stream: NodeJS.WriteStream, source: string): void {
  const write = stream.write;
  stream.write = function recordAndWrite(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    const text =
      typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '';
    if (recordLines(text, source) && !showLogs) {
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as NodeJS.WriteStream['write'];
}

/** vitest's console does not go through process.stdout: its lines are recorded here. */
function wrapConsole(): void {
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const original = console[method] as ((...args: unknown[]) => void) & { [INSTALLED]?: true };
    if (original[INSTALLED]) continue;
    const wrapped = Object.assign(
      function recordAndLog(this: Console, ...args: unknown[]) {
        recordLines(format(...args), `console.${method}`);
        original.apply(this, args);
      },
      { [INSTALLED]: true as const },
    );
    console[method] = wrapped;
  }
}

const state = globalThis as typeof globalThis & { [INSTALLED]?: true };
if (!state[INSTALLED]) {
  state[INSTALLED] = true;
  wrapFetch();
  wrapStream(process.stdout, 'stdout');
  wrapStream(process.stderr, 'stderr');
}
wrapConsole();
resetSecretsCheck();
trackEnvSecrets();

afterAll(async () => {
  const check = secretsCheck();
  trackEnvSecrets();
  await check.settled();
  const file = expect.getState().testPath;
  if (process.env.SECRETS_CHECK_STATS) {
    const count = (values: string[]) =>
      values.reduce<Record<string, number>>((all, v) => ({ ...all, [v]: (all[v] ?? 0) + 1 }), {});
    const stats = {
      file: file ? relative(process.cwd(), file) : undefined,
      secrets: check.secrets.size,
      ...check.counts,
      secretKinds: count([...check.secrets.values()].map((kind) => kind.replace(/ (sent to|issued by) .*/, ' $1 …'))),
      logPlaces: count(check.logs.map((l) => l.where)),
    };
    appendFileSync(process.env.SECRETS_CHECK_STATS, `${JSON.stringify(stats)}\n`);
  }
  const leaks = check.leaks();
  if (leaks.length) throw new Error(SecretsCheck.report(leaks));
});
