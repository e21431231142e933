/**
 * The part of the EventBridge Scheduler client eventbridge-scheduler.ts uses, in a module of its own that it
 * loads with import() at the first schedule change. esbuild keeps it in the bundle and evaluates it only then.
 */
export {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
