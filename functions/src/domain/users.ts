import { randomUUID } from 'node:crypto';
import { Messages, ROLE_ADMIN, ROLE_USER, type LoginInput, type PublicUser, type RegisterInput } from '@app/shared';
import { ApiError, conflict, forbidden, notFound, unauthorized } from './errors.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';

export interface UserRecord {
  id: string;
  name: string;
  surname: string;
  email: string;
  role: string;
  isActive: boolean;
  timezone: string;
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
  /** Set the first time an admin activates the account; tells "pending" from "deactivated". */
  approvedAt?: string;
  /**
   * Moved by every write to one of the user's articles (ArticleStore put and update), after it:
   * list answers are reused while it stays the same (http/list-cache.ts).
   */
  articlesVersion?: number;
}

export class EmailTakenError extends Error {}
export class FirstAdminTakenError extends Error {}

/** Storage port for users; the DynamoDB adapter implements it with conditional writes. */
export interface UserStore {
  /**
   * Creates the user and claims its e-mail atomically. With `claimFirstAdmin` it also claims the
   * one-time first-admin marker in the same transaction, so concurrent first registrations yield
   * exactly one admin.
   * @throws EmailTakenError | FirstAdminTakenError
   */
  create(user: UserRecord, options: { claimFirstAdmin: boolean }): Promise<void>;
  isFirstAdminClaimed(): Promise<boolean>;
  getById(id: string): Promise<UserRecord | undefined>;
  getByEmail(email: string): Promise<UserRecord | undefined>;
  list(): Promise<UserRecord[]>;
  /** Sets isActive unless the user is an admin. @returns undefined when no such user. */
  setActive(id: string, isActive: boolean, now: string): Promise<UserRecord | undefined>;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function toPublicUser(user: UserRecord): PublicUser {
  return {
    _id: user.id,
    name: user.name,
    surname: user.surname,
    email: user.email,
    role: user.role,
    isActive: user.isActive,
    timezone: user.timezone,
    createdAt: user.createdAt,
  };
}

export class UserService {
  constructor(private readonly store: UserStore) {}

  /** The first account ever becomes an active admin; every later one waits for approval. */
  async register(input: RegisterInput, now = new Date().toISOString()): Promise<UserRecord> {
    const base = {
      id: randomUUID(),
      name: input.name,
      surname: input.surname,
      email: normalizeEmail(input.email),
      timezone: input.timezone,
      passwordHash: await hashPassword(input.password),
      createdAt: now,
      updatedAt: now,
    };
    try {
      if (!(await this.store.isFirstAdminClaimed())) {
        const admin: UserRecord = { ...base, role: ROLE_ADMIN, isActive: true, approvedAt: now };
        try {
          await this.store.create(admin, { claimFirstAdmin: true });
          return admin;
        } catch (err) {
          if (!(err instanceof FirstAdminTakenError)) throw err;
        }
      }
      const user: UserRecord = { ...base, role: ROLE_USER, isActive: false };
      await this.store.create(user, { claimFirstAdmin: false });
      return user;
    } catch (err) {
      if (err instanceof EmailTakenError) throw conflict(Messages.emailTaken, 'email_taken');
      throw err;
    }
  }

  async login(input: LoginInput): Promise<UserRecord> {
    const user = await this.store.getByEmail(normalizeEmail(input.email));
    if (!user) {
      await burnPasswordCheck(input.password);
      throw unauthorized(Messages.invalidCredentials, 'invalid_credentials');
    }
    if (!(await verifyPassword(input.password, user.passwordHash))) {
      throw unauthorized(Messages.invalidCredentials, 'invalid_credentials');
    }
    if (!user.isActive) {
      throw user.approvedAt
        ? forbidden(Messages.accountDeactivated, 'account_inactive')
        : forbidden(Messages.accountPending, 'account_pending');
    }
    return user;
  }

  /** The user behind a session, only while the account is active. */
  async sessionUser(userId: string | undefined): Promise<UserRecord | undefined> {
    if (!userId) return undefined;
    const user = await this.store.getById(userId);
    return user?.isActive ? user : undefined;
  }

  async list(): Promise<UserRecord[]> {
    return this.store.list();
  }

  async get(id: string): Promise<UserRecord | undefined> {
    return this.store.getById(id);
  }

  async setActive(id: string, isActive: boolean, now = new Date().toISOString()): Promise<UserRecord> {
    const existing = await this.store.getById(id);
    if (!existing) throw notFound(Messages.userNotFound);
    if (existing.role === ROLE_ADMIN) throw new ApiError(403, Messages.adminImmutable, 'admin_immutable');
    const updated = await this.store.setActive(id, isActive, now);
    if (!updated) throw notFound(Messages.userNotFound);
    return updated;
  }
}
