/**
 * The part of the EventBridge Scheduler client eventbridge-scheduler.ts uses, in a module of its own that it
 * loads with import() at the first schedule change: a chunk of the Lambda bundle of its own, read then (infra/lib/bundling.ts).
 */
export {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
