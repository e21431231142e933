/**
 * The audit trail: security-relevant events as structured log lines, so that an operator can answer
 * "who did what, from where". Fields name people by id (and the e-mail tried, for sign-ins) and
 * never carry a password, a token or a code.
 */
export type AuditEvent =
  | 'login.succeeded'
  | 'login.failed'
  /** A failure that locked the account or the address for a while. */
  | 'login.locked'
  /** An attempt refused because of such a lock (no password was checked). */
  | 'login.throttled'
  | 'register.created'
  /** An account registered through a workspace invitation (active at once when the admin allows it). */
  | 'register.invited'
  /** A registration for an e-mail that has an account: answered as a new one, changes nothing. */
  | 'register.duplicate'
  | 'register.first_admin'
  | 'register.setup_code_refused'
  | 'session.logout'
  | 'session.logout_everywhere'
  | 'password.changed'
  | 'password.change_failed'
  | 'admin.user_activated'
  | 'admin.user_deactivated';

export interface AuditFields {
  /** Who acted (a signed-in user's id). */
  actorId?: string;
  /** Whom it concerned. */
  userId?: string;
  /** The e-mail address an anonymous attempt named. */
  email?: string;
  /** The client's address. */
  address?: string;
  reason?: string;
  lockedForSeconds?: number;
  retryAfterSeconds?: number;
}

export type AuditLog = (event: AuditEvent, fields: AuditFields) => void;
