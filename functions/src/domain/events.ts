/**
 * Business events the services report where the outcome is known: metrics in AWS
 * (functions/src/metrics.ts, wired in functions/src/wiring/*). Optional in every service's deps,
 * so the domain needs no vendor SDK and its tests need no fake.
 */
export interface BusinessEvents {
  /**
   * A post went out on this channel (its registry id, functions/src/channels/registry.ts: a second blog channel's
   * failures are its own, not the blog version's WordPress).
   */
  publishSucceeded(channel: string): void;
  /** Publishing to this channel failed with this code (the article's lastError code). */
  publishFailed(channel: string, code: string): void;
  /** AI drafting failed with this code (the article's lastError code). */
  draftFailed(code: string): void;
  /** A scheduled run e-mailed its approval link. */
  approvalEmailSent(): void;
  /** A scheduled run could not e-mail its approval link (email_failed, email_not_configured). */
  approvalEmailFailed(code: string): void;
  /** A domain event (automation-events.ts) did not reach the bus or the owner's webhook. */
  automationEventFailed(target: 'bus' | 'webhook', eventName: string): void;
}
