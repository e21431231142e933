import { randomUUID } from 'node:crypto';
import {
  Messages,
  ROLE_ADMIN,
  ROLE_USER,
  type ChangePasswordInput,
  type LoginInput,
  type RegisterInput,
} from '@app/shared';
import type { AuditLog } from './audit.js';
import { equalInConstantTime } from './constant-time.js';
import { badRequest, forbidden, notFound, unauthorized } from './errors.js';
import { TooManyAttemptsError, type AttemptSubjects, type LoginThrottle } from './login-throttle.js';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { revokedEntryExpiry, revokedSessionEntry, type Session } from './sessions.js';
import { normalizeEmail, type UserRecord, type UserStore } from './users.js';

export class EmailTakenError extends Error {}
export class FirstAdminTakenError extends Error {}

/** Storage port of the sign-in and registration side; the DynamoDB adapter implements it with conditional writes. */
export interface AccountStore extends UserStore {
  /**
   * Creates the user and claims its e-mail atomically. With `claimFirstAdmin` it also claims the
   * one-time first-admin marker in the same transaction, so concurrent first registrations yield
   * exactly one admin.
   * @throws EmailTakenError | FirstAdminTakenError
   */
  create(user: UserRecord, options: { claimFirstAdmin: boolean }): Promise<void>;
  isFirstAdminClaimed(): Promise<boolean>;
  getByEmail(email: string): Promise<UserRecord | undefined>;
  /** Ends one session (adds its entry) and forgets entries of sessions that have expired anyway. */
  revokeSession(id: string, entry: string, expiredEntries: readonly string[]): Promise<void>;
  /** Moves the session version (every session ends) and forgets the one-by-one revocations. @returns the user after. */
  endAllSessions(id: string): Promise<UserRecord | undefined>;
  /** Replaces the password hash and ends every session, in one write. @returns the user after. */
  setPassword(id: string, passwordHash: string, now: string): Promise<UserRecord | undefined>;
  /**
   * Replaces a hash by a stronger one of the same password, sessions untouched, only while the stored
   * hash is still `previousHash` (a password changed meanwhile stays).
   */
  upgradePasswordHash(id: string, previousHash: string, passwordHash: string): Promise<void>;
}

/**
 * Who may claim the first (admin) account of a deployment. Unguarded (a laptop), the first account
 * registered becomes the admin. Guarded (AWS), only a registration that carries the one-time setup
 * code may claim it, so that whoever finds a new public URL first does not own the deployment. (An
 * e-mail address named at deployment is no such proof: registering with it proves nobody owns it.)
 */
export interface FirstAdminGuard {
  /** The one-time setup code (Secrets Manager in AWS); undefined when none is configured. */
  setupCode?: () => Promise<string | undefined>;
}

/** Where a sign-in or an account change comes from. */
export interface RequestContext {
  address: string;
}

/**
 * What choosing a new password needs besides: the common-password check is handed in by the auth
 * handlers (domain/common-passwords.ts), so that only the auth function bundles its loader.
 */
export interface NewPasswordContext extends RequestContext {
  isCommonPassword: (password: string) => Promise<boolean>;
}

export interface AccountServiceOptions {
  throttle: LoginThrottle;
  audit: AuditLog;
  firstAdmin?: FirstAdminGuard;
}

/**
 * Registration, sign-in, sign-out and password changes: the auth routes' side of the users, apart from what every
 * function's session check reads (UserService, domain/users.ts), so that no other function parses it.
 */
export class AccountService {
  constructor(
    private readonly store: AccountStore,
    private readonly options: AccountServiceOptions,
  ) {}

  private get audit() {
    return this.options.audit;
  }

  private get guarded(): boolean {
    const guard = this.options.firstAdmin;
    return Boolean(guard?.setupCode);
  }

  /** Whether registering now needs the setup code: a guarded deployment that has no admin yet. */
  async setupCodeRequired(): Promise<boolean> {
    return this.guarded && !(await this.store.isFirstAdminClaimed());
  }

  /** Whether this registration may claim the first admin account of a guarded deployment. */
  private async mayClaimFirstAdmin(input: RegisterInput): Promise<boolean> {
    const guard = this.options.firstAdmin;
    if (!this.guarded || !guard) return true;
    const code = input.setupCode?.trim();
    const expected = code ? await guard.setupCode?.() : undefined;
    return Boolean(code && expected && equalInConstantTime(code, expected.trim()));
  }

  /** Refuses the most common passwords (the length rules are the schema's). */
  private async checkNewPassword(password: string, context: NewPasswordContext): Promise<void> {
    if (await context.isCommonPassword(password)) throw badRequest(Messages.passwordTooCommon, 'password_too_common');
  }

  /**
   * The first account ever becomes an active admin (guarded deployments: see FirstAdminGuard);
   * every later one waits for approval. A registration for an e-mail that already has an account
   * answers like a new one and changes nothing, so registering tells nobody who has an account.
   * @returns the user, or undefined for such a duplicate.
   */
  async register(
    input: RegisterInput,
    context: NewPasswordContext,
    now = new Date().toISOString(),
  ): Promise<UserRecord | undefined> {
    await this.checkNewPassword(input.password, context);
    const email = normalizeEmail(input.email);
    const base = {
      id: randomUUID(),
      name: input.name,
      surname: input.surname,
      email,
      timezone: input.timezone,
      passwordHash: await hashPassword(input.password),
      createdAt: now,
      updatedAt: now,
      sessionVersion: 0,
    };
    try {
      if (!(await this.store.isFirstAdminClaimed())) {
        if (!(await this.mayClaimFirstAdmin(input))) {
          this.audit('register.setup_code_refused', {
            email,
            address: context.address,
            reason: input.setupCode ? 'wrong_code' : 'no_code',
          });
          throw input.setupCode?.trim()
            ? badRequest(Messages.setupCodeWrong, 'setup_code_wrong')
            : badRequest(Messages.setupCodeRequired, 'setup_code_required');
        }
        const admin: UserRecord = { ...base, role: ROLE_ADMIN, isActive: true, approvedAt: now };
        try {
          await this.store.create(admin, { claimFirstAdmin: true });
          this.audit('register.first_admin', { userId: admin.id, email, address: context.address });
          return admin;
        } catch (err) {
          if (!(err instanceof FirstAdminTakenError)) throw err;
        }
      }
      const user: UserRecord = { ...base, role: ROLE_USER, isActive: false };
      await this.store.create(user, { claimFirstAdmin: false });
      this.audit('register.created', { userId: user.id, email, address: context.address });
      return user;
    } catch (err) {
      if (err instanceof EmailTakenError) {
        this.audit('register.duplicate', { email, address: context.address });
        return undefined;
      }
      throw err;
    }
  }

  /**
   * A new account for an invitation's address (functions/src/domain/workspaces.ts): the link proves the
   * address, so it is the invitation's, not typed. Active at once only when the admin lets invitations
   * activate accounts; else it waits for approval like any registration.
   * @returns undefined when the address has an account (the invitee, who holds the link, signs in instead).
   */
  async registerInvited(
    input: Omit<RegisterInput, 'email' | 'setupCode'>,
    email: string,
    activate: boolean,
    context: NewPasswordContext,
    now = new Date().toISOString(),
  ): Promise<UserRecord | undefined> {
    await this.checkNewPassword(input.password, context);
    const user: UserRecord = {
      id: randomUUID(),
      name: input.name,
      surname: input.surname,
      email: normalizeEmail(email),
      timezone: input.timezone,
      passwordHash: await hashPassword(input.password),
      createdAt: now,
      updatedAt: now,
      sessionVersion: 0,
      role: ROLE_USER,
      isActive: activate,
      ...(activate ? { approvedAt: now } : {}),
    };
    try {
      await this.store.create(user, { claimFirstAdmin: false });
    } catch (err) {
      if (err instanceof EmailTakenError) return undefined;
      throw err;
    }
    this.audit('register.invited', { userId: user.id, email: user.email, address: context.address });
    return user;
  }

  /**
   * Signs in, throttled per account (from this client, and from all) and per client: the attempt is
   * counted before its password is checked, and while a count is locked or its allowance is taken the
   * answer is 429 with Retry-After and no password is checked. Unknown e-mails count like wrong passwords.
   */
  async login(input: LoginInput, context: RequestContext): Promise<UserRecord> {
    const email = normalizeEmail(input.email);
    const subjects: AttemptSubjects = { email, address: context.address };
    try {
      await this.options.throttle.begin(subjects);
    } catch (err) {
      if (err instanceof TooManyAttemptsError) {
        this.audit('login.throttled', { email, address: context.address, retryAfterSeconds: err.retryAfterSeconds });
      }
      throw err;
    }
    const user = await this.store.getByEmail(email);
    let passwordOk = false;
    if (user) passwordOk = await verifyPassword(input.password, user.passwordHash);
    else await burnPasswordCheck(input.password); // the same time as a real check: unknown e-mails cannot be told by timing
    if (!user || !passwordOk) {
      const locked = await this.options.throttle.failed(subjects);
      this.audit('login.failed', {
        email,
        userId: user?.id,
        address: context.address,
        reason: user ? 'wrong_password' : 'unknown_email',
      });
      if (locked.reason) {
        this.audit('login.locked', {
          email,
          userId: user?.id,
          address: context.address,
          reason: locked.reason,
          lockedForSeconds: Math.ceil(locked.lockedForMs / 1000),
        });
      }
      throw unauthorized(Messages.invalidCredentials, 'invalid_credentials');
    }
    await this.options.throttle.succeeded(subjects);
    if (needsRehash(user.passwordHash)) {
      await this.store.upgradePasswordHash(user.id, user.passwordHash, await hashPassword(input.password));
    }
    if (!user.isActive) {
      this.audit('login.failed', {
        email,
        userId: user.id,
        address: context.address,
        reason: user.approvedAt ? 'deactivated' : 'pending',
      });
      throw user.approvedAt
        ? forbidden(Messages.accountDeactivated, 'account_inactive')
        : forbidden(Messages.accountPending, 'account_pending');
    }
    this.audit('login.succeeded', { userId: user.id, address: context.address });
    return user;
  }

  /** Ends this session only (logout); other devices stay signed in. */
  async endSession(session: Session | undefined, context: RequestContext, now = Date.now()): Promise<void> {
    if (!session) return;
    const user = await this.store.getById(session.userId);
    if (!user) return;
    const nowSeconds = Math.floor(now / 1000);
    const expired = [...(user.revokedSessions ?? [])].filter((entry) => revokedEntryExpiry(entry) <= nowSeconds);
    await this.store.revokeSession(user.id, revokedSessionEntry(session), expired);
    this.audit('session.logout', { userId: user.id, address: context.address });
  }

  /** Ends every session of the user, this one included. */
  async endAllSessions(user: UserRecord, context: RequestContext): Promise<void> {
    await this.store.endAllSessions(user.id);
    this.audit('session.logout_everywhere', { userId: user.id, address: context.address });
  }

  /**
   * Changes the password after checking the current one (throttled like a sign-in, so it cannot be
   * used to guess it); every session ends. @returns the user after, for a new session of this browser.
   */
  async changePassword(
    user: UserRecord,
    input: ChangePasswordInput,
    context: NewPasswordContext,
    now = new Date().toISOString(),
  ): Promise<UserRecord> {
    const subjects: AttemptSubjects = { email: user.email, address: context.address };
    await this.options.throttle.begin(subjects);
    if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
      await this.options.throttle.failed(subjects);
      this.audit('password.change_failed', {
        userId: user.id,
        address: context.address,
        reason: 'wrong_current_password',
      });
      throw badRequest(Messages.currentPasswordWrong, 'current_password_wrong');
    }
    await this.options.throttle.succeeded(subjects);
    await this.checkNewPassword(input.newPassword, context);
    const updated = await this.store.setPassword(user.id, await hashPassword(input.newPassword), now);
    if (!updated) throw notFound(Messages.userNotFound);
    this.audit('password.changed', { userId: user.id, address: context.address });
    return updated;
  }
}
