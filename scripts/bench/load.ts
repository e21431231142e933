/**
 * A small keep-alive HTTP load generator for `npm run bench`. It runs in a worker thread
 * (load-worker.mjs), so the requests are made and their answers read off the event loop that
 * serves them (the local stack runs in the bench's main thread). Each connection sends its next
 * request when the previous answer has been read in full, like a browser tab waiting for its list.
 */
import { Worker } from 'node:worker_threads';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Stop starting requests after this long… */
  durationMs?: number;
  /** …or after this many requests (whichever comes first). */
  requests?: number;
}

export interface LoadResult {
  /** Latency of each completed request in ms, in completion order. */
  latencies: number[];
  /** Answers other than 200, and failed requests (first few messages kept). */
  errors: number;
  errorSamples: string[];
  bytes: number;
  /** Wall time from the first request until the last answer, in ms. */
  elapsedMs: number;
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * A worker thread that generates load on request. Its keep-alive connections stay open between
 * runs with the same number of connections, so single requests are timed without a TCP handshake.
 */
export class LoadClient {
  private readonly worker = new Worker(new URL('./load-worker.mjs', import.meta.url));
  private readonly waiting = new Map<number, { resolve(r: LoadResult): void; reject(e: Error): void }>();
  private next = 0;

  constructor() {
    this.worker.on('message', ({ id, result }: { id: number; result: LoadResult }) => {
      this.waiting.get(id)?.resolve(result);
      this.waiting.delete(id);
    });
    const failAll = (err: Error) => {
      for (const { reject } of this.waiting.values()) reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`the load worker exited (code ${code})`)));
  }

  run(options: LoadOptions): Promise<LoadResult> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, options });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
