/**
 * The part of the SQS client the bulk job queue uses, in a module of its own that sqs-job-queue.ts loads with
 * import() at the first import's jobs: a chunk of the Lambda bundle of its own, read then (infra/lib/bundling.ts).
 */
export { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
