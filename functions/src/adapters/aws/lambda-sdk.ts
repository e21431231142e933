/**
 * The part of the Lambda client the job queue uses, in a module of its own that lambda-job-queue.ts loads with
 * import() at the first job: a chunk of the Lambda bundle of its own, read then (infra/lib/bundling.ts).
 */
export { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
