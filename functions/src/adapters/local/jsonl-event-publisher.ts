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
    // The events name users and articles: readable by this user only.
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    await appendFile(this.file, lines, { encoding: 'utf8', mode: 0o600 });
  }
}

/** The events of a JSON-lines file (tests, a local consumer): one envelope per non-empty line. */
export const parseEventLines = (text: string): EventEnvelope[] =>
  text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EventEnvelope);
