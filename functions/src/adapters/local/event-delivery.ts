import type { EventRelay, OutboxEntry } from '../../domain/automation-events.js';
import { trackLocalWork } from './in-process-job-queue.js';

export interface LocalEventDeliveryOptions {
  /** Wait before the first retry; each next one waits twice as long, up to maxDelayMs. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** A delivery attempt that threw (the table unreachable, say): it is tried again all the same. */
  onError?: (error: unknown) => void;
}

/**
 * The local counterpart of the table's stream and the worker that reads it (infra/lib/event-delivery.ts):
 * the entries a write committed are delivered right after it, in this process, and what was not delivered
 * is tried again with a growing wait until it is (EventRelay marks each target's success on the outbox item,
 * so a retry sends only what is missing). An attempt in progress counts as local work (localJobsIdle); a
 * wait does not. Events left undelivered when the process stops are found at the next start
 * (undeliveredEvents, functions/src/local/stack.ts).
 */
export class LocalEventDelivery {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private readonly firstDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(
    private readonly relay: () => Pick<EventRelay, 'deliver'>,
    private readonly options: LocalEventDeliveryOptions = {},
  ) {
    this.firstDelayMs = options.firstDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
  }

  deliver(entries: readonly OutboxEntry[], retry = 0): void {
    if (this.stopped || !entries.length) return;
    void trackLocalWork(this.attempt([...entries], retry));
  }

  private async attempt(entries: OutboxEntry[], retry: number): Promise<void> {
    // Not in the committing request's own turn: its answer does not wait for the delivery.
    await new Promise((resolve) => setImmediate(resolve));
    let undelivered = entries;
    try {
      ({ undelivered } = await this.relay().deliver(entries));
    } catch (error) {
      this.options.onError?.(error);
    }
    if (!undelivered.length || this.stopped) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.deliver(undelivered, retry + 1);
      },
      Math.min(this.maxDelayMs, this.firstDelayMs * 2 ** retry),
    );
    timer.unref();
    this.timers.add(timer);
  }

  /** No more attempts (the local stack stops); what is undelivered stays in the outbox. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
