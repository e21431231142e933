import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { Job, JobQueue } from '../../domain/ports.js';

/** Hands a job to the worker function asynchronously (InvocationType Event): the request answers at once. */
export class LambdaJobQueue implements JobQueue {
  constructor(
    private readonly client: LambdaClient,
    private readonly functionName: string,
  ) {}

  async enqueue(job: Job): Promise<void> {
    await this.client.send(
      new InvokeCommand({
        FunctionName: this.functionName,
        InvocationType: 'Event',
        Payload: Buffer.from(JSON.stringify(job)),
      }),
    );
  }
}
