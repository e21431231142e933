import { VERSION_ID, lazySchema } from '@app/shared';
import * as z from 'zod/mini';
import type { Job } from '../domain/ports.js';

const id = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(128)));
const instant = lazySchema(() => z.iso.datetime());

/** A job as the worker receives it (async invoke, a schedule, a queue message): checked like API input. */
export const JobSchema = lazySchema(
  () =>
    z.discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('generate-content'),
        userId: id(),
        articleId: id(),
        actorId: z.optional(id()),
        inFlight: z.optional(z.literal(true)),
      }),
      z.strictObject({
        type: z.literal('generate-image'),
        userId: id(),
        articleId: id(),
        description: z.string().check(z.maxLength(10_000)),
        requestedAt: instant(),
        inFlight: z.optional(z.literal(true)),
      }),
      z.strictObject({
        type: z.literal('generate-and-notify'),
        userId: id(),
        articleId: id(),
        // A channel's own version's slot is named by the channel's id too (domain/articles.ts, VersionId).
        platform: z.string().check(z.regex(VERSION_ID)),
        scheduledFor: instant(),
        attempt: z.optional(z.int().check(z.minimum(2), z.maximum(100))),
      }),
      z.strictObject({
        type: z.literal('review-mail'),
        userId: id(),
        articleId: id(),
        // A channel's own version is named by the channel's id (domain/articles.ts, VersionId).
        platform: z.string().check(z.regex(VERSION_ID)),
        rev: z.int().check(z.minimum(1)),
      }),
    ]) satisfies z.ZodMiniType<Job>,
);

/**
 * What Lambda sends to a failure destination: the invocation record, with the job as requestPayload.
 * Moved back to the job queue (a DLQ redrive), such a message is run as its job.
 */
const InvocationRecordSchema = lazySchema(() =>
  z.looseObject({ requestPayload: z.unknown(), requestContext: z.looseObject({ functionArn: z.string() }) }),
);

/** The job in a queue message body: a job as sent, or a failed invocation's record. Undefined when it is neither. */
export function jobOfMessage(body: string): Job | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const record = InvocationRecordSchema().safeParse(parsed);
  const job = JobSchema().safeParse(record.success ? record.data.requestPayload : parsed);
  return job.success ? job.data : undefined;
}
