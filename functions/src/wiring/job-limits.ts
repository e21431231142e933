import { DynamoThrottleStore } from '../adapters/dynamo/throttle-store.js';
import { JobLimits } from '../domain/job-limits.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

/** The per-user limits on drafting, image and upload calls, counted in the table (domain/job-limits.ts). */
export const jobLimits = lazy(() => {
  const { config, db } = deps();
  return new JobLimits(new DynamoThrottleStore(db, config.tableName), config.jobLimits);
});
