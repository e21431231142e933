import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { Job, JobQueue } from '../../domain/ports.js';

export type LambdaSdk = typeof import('./lambda-sdk.js');

let lambdaSdk: Promise<LambdaSdk> | undefined;
/**
 * The Lambda client (~70 KB) is loaded by the first job, not at cold start: most calls of the functions that
 * queue jobs (listing and editing articles) never do (docs/testing.md, Performance budgets). It stays in the
 * bundle, evaluated on first use; as an on-demand package it would bring a second copy of the SDK's core.
 */
const loadLambdaSdk = (): Promise<LambdaSdk> => (lambdaSdk ??= import('./lambda-sdk.js'));

/** Hands a job to the worker function asynchronously (InvocationType Event): the request answers at once. */
export class LambdaJobQueue implements JobQueue {
  private client: LambdaClient | undefined;

  constructor(
    private readonly makeClient: (sdk: LambdaSdk) => LambdaClient,
    private readonly functionName: string,
  ) {}

  async enqueue(job: Job): Promise<void> {
    const sdk = await loadLambdaSdk();
    this.client ??= this.makeClient(sdk);
    await this.client.send(
      new sdk.InvokeCommand({
        FunctionName: this.functionName,
        InvocationType: 'Event',
        Payload: Buffer.from(JSON.stringify(job)),
      }),
    );
  }
}
