/**
 * The secrets check (issue #8): every secret value a test uses (passwords, tokens, API keys,
 * client secrets) is registered here, every API response and every log line of the run is
 * recorded, and at the end of each test file no recorded text may contain a registered secret.
 *
 * This module only keeps the registry and finds leaks; it has no side effects, so the fakes (also
 * used by the browser journeys) can call `trackSecret` freely. The setup file
 * `secrets-check.ts` captures the responses and log lines and runs the check.
 */

/** Shorter values are placeholders ('p', 'x'), not secrets, and would match everywhere. */
export const MIN_SECRET_LENGTH = 8;

export interface RecordedText {
  /** e.g. `response body of POST /api/settings → 201` or `log line (stdout)` */
  where: string;
  text: string;
  /** The test that was running, when known. */
  test?: string;
  /** Secret values allowed in this text only (a secret the API issues once, in this response). */
  allow?: ReadonlySet<string>;
}

export interface Leak {
  kind: string;
  /** The secret in a masked form, safe to print. */
  masked: string;
  where: string;
  test?: string;
  /** The text around the finding, with every known secret masked. */
  excerpt: string;
}

/** A secret in a form that is safe to print: its first 3 characters and its length. */
export function maskForReport(value: string): string {
  return `${value.slice(0, 3)}…(${value.length} chars)`;
}

/** The forms in which a secret can appear in a JSON log line, a header or a URL. */
function variants(value: string): string[] {
  const forms = new Set([
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    Buffer.from(value).toString('base64').replace(/=+$/, ''),
  ]);
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

export class SecretsCheck {
  /** secret value → what it is (e.g. "Google refresh token (issued by the fake)") */
  readonly secrets = new Map<string, string>();
  readonly responses: RecordedText[] = [];
  readonly logs: RecordedText[] = [];
  /** Responses are read asynchronously (a clone of the body); the check waits for them. */
  readonly pending = new Set<Promise<unknown>>();
  /** Origins of our API (the test apps); responses from anywhere else (the fakes) are not checked. */
  readonly apiOrigins = new Set<string>();
  /** How much the check examined, for the run's statistics. */
  readonly counts = { responses: 0, logLines: 0 };

  /** Registers a secret value; values under MIN_SECRET_LENGTH characters and non-strings are ignored. */
  track(value: unknown, kind: string): void {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
    if (!this.secrets.has(value)) this.secrets.set(value, kind);
  }

  isSecret(value: string): boolean {
    return this.secrets.has(value);
  }

  recordResponse(entry: RecordedText): void {
    this.responses.push(entry);
  }

  recordLog(entry: RecordedText): void {
    this.counts.logLines++;
    this.logs.push(entry);
  }

  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Every place where a tracked secret appears in a recorded response or log line. */
  leaks(): Leak[] {
    const found: Leak[] = [];
    const seen = new Set<string>();
    for (const items of [this.responses, this.logs]) {
      if (items.length === 0) continue;
      // One blob per kind of text, searched once per secret form; offsets map hits back to items.
      const starts: number[] = [];
      let blob = '';
      for (const item of items) {
        starts.push(blob.length);
        blob += `${item.text}\u0000`;
      }
      for (const [secret, kind] of this.secrets) {
        for (const form of variants(secret)) {
          for (let at = blob.indexOf(form); at >= 0; at = blob.indexOf(form, at + 1)) {
            const index = lastAtOrBefore(starts, at);
            const item = items[index]!;
            if (item.allow?.has(secret)) continue;
            const key = `${secret}\u0000${item.where}\u0000${item.test ?? ''}`;
            if (seen.has(key)) continue;
            seen.add(key);
            const from = at - starts[index]!;
            found.push({
              kind,
              masked: maskForReport(secret),
              where: item.where,
              test: item.test,
              excerpt: this.excerpt(item.text, from, form.length),
            });
          }
        }
      }
    }
    return found;
  }

  /** ~160 characters around a finding, with every tracked secret masked. */
  private excerpt(text: string, at: number, length: number): string {
    let part = text.slice(Math.max(0, at - 80), at + length + 80);
    const bySize = [...this.secrets.keys()].sort((a, b) => b.length - a.length);
    for (const secret of bySize) {
      for (const form of variants(secret)) part = part.split(form).join(`[SECRET ${maskForReport(secret)}]`);
    }
    return part.replace(/\s+/g, ' ');
  }

  /** A failure message naming each leak's secret kind and place; never the secret itself. */
  static report(leaks: Leak[], max = 20): string {
    const lines = leaks
      .slice(0, max)
      .map((l) => `- ${l.kind} ${l.masked} in ${l.where}${l.test ? ` (test: ${l.test})` : ''}\n    …${l.excerpt}…`);
    if (leaks.length > max) lines.push(`- and ${leaks.length - max} more`);
    return `${leaks.length} secret value(s) left the server in an API response or a log line:\n${lines.join('\n')}`;
  }
}

function lastAtOrBefore(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const GLOBAL = Symbol.for('content-publisher.secrets-check');
type WithCheck = typeof globalThis & { [GLOBAL]?: SecretsCheck };

/** The check of the running test file (one per worker; the setup file resets it per file). */
export function secretsCheck(): SecretsCheck {
  return ((globalThis as WithCheck)[GLOBAL] ??= new SecretsCheck());
}

export function resetSecretsCheck(): SecretsCheck {
  return ((globalThis as WithCheck)[GLOBAL] = new SecretsCheck());
}

/** Marks a base URL as our API: its responses are recorded and checked. */
export function registerApiOrigin(url: string): void {
  secretsCheck().apiOrigins.add(new URL(url).origin);
}

/** Registers a secret the tests use or a fake issues, so the check makes sure it never leaks. */
export function trackSecret(value: unknown, kind: string): void {
  secretsCheck().track(value, kind);
}
