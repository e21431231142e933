/** User-facing texts that both the UI and the server show (docs/product.md, Texts). */
export const Messages = {
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  notAuthenticated: 'Not authenticated',
  logoutFailed: 'Logout failed',
  loggedIn: 'Logged in successfully',
  adminCreated: 'Admin account created. You are logged in.',
  registrationReceived: 'Registration received. Await admin approval.',
  loggedOut: 'Logged out.',
  invalidCredentials: 'Invalid email or password',
  accountPending: 'Your account is awaiting admin approval. You can log in once an admin activates it.',
  accountDeactivated: 'Your account has been deactivated. Contact an admin.',
  passwordTooCommon: 'This password is one of the most common ones and easy to guess: choose another',
  currentPasswordWrong: 'The current password is not correct',
  passwordChanged: 'Password changed. You were signed out everywhere else.',
  loggedOutEverywhere: 'Logged out on every device.',
  setupCodeRequired:
    'This deployment has no admin yet: the first account needs the setup code (the stack output SetupCodeCommand prints it) or the admin e-mail address set at deployment',
  setupCodeWrong: 'The setup code is not correct. Copy it again from the command in the stack output SetupCodeCommand.',
  sessionExpired: 'Your session has ended. Please log in again.',
  adminOnly: 'Only admins can do this',
  adminImmutable: 'Admin accounts cannot be changed',
  userNotFound: 'User not found',
  failedToLoadUsers: 'Failed to load users',
  failedToUpdateUser: 'Failed to update user',
  userActivated: 'User activated',
  userDeactivated: 'User deactivated',
  crossOrigin: 'Cross-origin requests are not allowed',
  bodyTooLarge: 'Request body is larger than 1 MB',
  malformedJson: 'Request body is not valid JSON',
  bodyNotObject: 'Request body must be a JSON object',
  malformedPath: 'The request path is not valid (bad %-encoding)',
  notFound: 'Not found',
  internal: 'Something went wrong on our side. Please try again.',
} as const;

/** A wait in words: "45 seconds", "1 minute", "23 minutes". */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The 429 of a locked sign-in: how long to wait, in words. */
export function tooManyLoginAttempts(retryAfterSeconds: number): string {
  return `Too many failed sign-in attempts. Try again in ${waitInWords(retryAfterSeconds)}.`;
}

/** The calls that cost AI credits or decoding work, limited per user per hour (functions/src/domain/job-limits.ts). */
export type LimitedCall = 'draft' | 'image' | 'upload';
const LIMITED_CALL_NAMES: Record<LimitedCall, [one: string, many: string]> = {
  draft: ['draft', 'drafts'],
  image: ['image generation', 'image generations'],
  upload: ['image upload', 'image uploads'],
};

/** The 429 of a call over its hourly limit, with when the next one may start. */
export function hourlyLimitReached(call: LimitedCall, limit: number, retryAfterSeconds: number): string {
  const [one, many] = LIMITED_CALL_NAMES[call];
  return `You have started ${limit} ${limit === 1 ? one : many} this hour, the most allowed. You can start another in ${waitInWords(retryAfterSeconds)}.`;
}

/** The 429 of a drafting or image job while the user's others still run. */
export function tooManyJobsRunning(limit: number): string {
  return `You already have ${limit} ${limit === 1 ? 'draft or image' : 'drafts and images'} being made. Try again when one of them is done (usually within a minute).`;
}

/**
 * Codes a failed background run records as the article's lastError, with what they tell the user.
 * The Schedule card and the dashboard's "Needs attention" show them; codes in RUN_FAILURES_FIXED_IN_SETTINGS
 * link to Settings.
 */
export const RunFailureMessages = {
  email_failed: 'The approval e-mail could not be sent: reconnect Gmail in Settings.',
  email_not_configured: 'The approval e-mail could not be sent: set up Gmail in Settings.',
  draft_failed: 'Drafting did not finish. Open the article to generate it again, or try again later.',
  image_failed: 'The image could not be made. Generate it again from the article.',
  run_failed: 'The scheduled run did not finish. It is tried again; if this stays, reschedule the article.',
  /** Recorded with RunRetryMessages.retrying, which says when; this is the text without the time. */
  run_retrying: 'The approval e-mail could not be sent yet; it is tried again automatically.',
} as const;
export type RunFailureCode = keyof typeof RunFailureMessages;
/**
 * What a scheduled run's lastError says while its automatic retries go on (code run_retrying), and once they are
 * used up (functions/src/domain/run-retries.ts).
 */
export const RunRetryMessages = {
  retrying: (attempt: number, attempts: number, when: string) =>
    `The approval e-mail could not be sent yet (the mail service or the network failed); it is tried again automatically on ${when} (attempt ${attempt} of ${attempts}).`,
  gaveUp: (attempts: number) =>
    `The approval e-mail could not be sent in ${attempts} attempts over several hours. Schedule the article again to send it.`,
} as const;
export const RUN_FAILURES_FIXED_IN_SETTINGS: ReadonlySet<string> = new Set<RunFailureCode>([
  'email_failed',
  'email_not_configured',
]);
