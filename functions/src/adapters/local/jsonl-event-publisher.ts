import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  envelopeOf,
  type DomainEvent,
  type DomainEventPublisher,
  type EventEnvelope,
} from '../../domain/automation-events.js';

/**
 * The bus locally: each event appended to one file (`$DATA_DIR/events.jsonl`) as one JSON line, in
 * the envelope EventBridge rules see (`source`, `detail-type`, `time`, `detail`, …). One appendFile
 * per call: lines of events emitted at the same moment never interleave.
 */
export class JsonLinesEventPublisher implements DomainEventPublisher {
  constructor(
    private readonly file: string,
    private readonly where: { account: string; region: string },
  ) {}

  async publish(events: readonly DomainEvent[]): Promise<void> {
    if (!events.length) return;
    const lines = events.map((event) => `${JSON.stringify(envelopeOf(event, this.where))}\n`).join('');
    await mkdir(dirname(this.file), { recursive: true });
    await appendFile(this.file, lines, 'utf8');
  }
}

/** The events of a JSON-lines file (tests, a local consumer): one envelope per non-empty line. */
export const parseEventLines = (text: string): EventEnvelope[] =>
  text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EventEnvelope);
