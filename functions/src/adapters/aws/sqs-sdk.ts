/**
 * The part of the SQS client the bulk job queue uses, in a module of its own that sqs-job-queue.ts loads with
 * import() at the first import's jobs. esbuild keeps it in the bundle and evaluates it only then.
 */
export { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
