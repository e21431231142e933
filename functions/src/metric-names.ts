/**
 * The CloudWatch metric names and dimension values the functions emit (metrics.ts), kept free of
 * Powertools so that the stack's alarms (infra/lib/alarms.ts) can name the same metrics.
 */
export const MetricNames = {
  publishSucceeded: 'PublishSucceeded',
  publishFailed: 'PublishFailed',
  draftFailed: 'DraftFailed',
  approvalEmailSent: 'ApprovalEmailSent',
  approvalEmailFailed: 'ApprovalEmailFailed',
  automationEventFailed: 'AutomationEventFailed',
  jobDuration: 'JobDuration',
} as const;
