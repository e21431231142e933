import { Messages, ROLE_ADMIN, type PublicUser } from '@app/shared';
import type { AuditLog } from './audit.js';
import { forbidden, notFound } from './errors.js';
import { revokedSessionEntry, type Session } from './sessions.js';

/** The stored user: the API's PublicUser and what only the server keeps. */
export interface UserRecord extends Omit<PublicUser, '_id'> {
  /** The API shows it as `_id`. */
  id: string;
  passwordHash: string;
  updatedAt: string;
  /** Set the first time an admin activates the account; tells "pending" from "deactivated". */
  approvedAt?: string;
  /**
   * Moved by every write to one of the user's articles (ArticleStore put and update), after it:
   * list answers are reused while it stays the same (http/list-cache.ts).
   */
  articlesVersion?: number;
  /** ISO time of that move: how long the article indexes have had to catch up (http/articles.ts). */
  articlesChangedAt?: string;
  /** Sessions issued at another version have ended (logout everywhere, password change, deactivation). Absent = 0. */
  sessionVersion?: number;
  /** Sessions ended one by one (logout), as `<expiry>:<session id>` (see revokedSessionEntry). */
  revokedSessions?: Set<string>;
}

/**
 * Storage port for users, as every function's session check and the admin's user list need it; the sign-in and
 * registration side is AccountStore (domain/accounts.ts).
 */
export interface UserStore {
  getById(id: string): Promise<UserRecord | undefined>;
  list(): Promise<UserRecord[]>;
  /**
   * Sets isActive unless the user is an admin; deactivating also ends every session.
   * @returns undefined when no such user.
   */
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

/**
 * The users as every function reads them: the user behind a session (each request's check), the active owner a
 * scheduled run or a link acts for, and the admin's list. Sign-in, registration and password changes are the
 * AccountService's (domain/accounts.ts), which only the auth function loads.
 */
export class UserService {
  constructor(
    private readonly store: UserStore,
    private readonly options: { audit: AuditLog },
  ) {}

  private get audit() {
    return this.options.audit;
  }

  /**
   * The user behind a session, only while the account is active and the session has not been
   * ended (logout, logout everywhere, password change, deactivation).
   */
  async sessionUser(session: Session | undefined): Promise<UserRecord | undefined> {
    if (!session) return undefined;
    const user = await this.store.getById(session.userId);
    if (!user?.isActive) return undefined;
    if ((user.sessionVersion ?? 0) !== session.version) return undefined;
    if (user.revokedSessions?.has(revokedSessionEntry(session))) return undefined;
    return user;
  }

  /** The user while the account is active (scheduled runs and approval links act for active owners only). */
  async activeUser(userId: string): Promise<UserRecord | undefined> {
    const user = await this.store.getById(userId);
    return user?.isActive ? user : undefined;
  }

  async list(): Promise<UserRecord[]> {
    return this.store.list();
  }

  async get(id: string): Promise<UserRecord | undefined> {
    return this.store.getById(id);
  }

  async setActive(
    actor: UserRecord,
    id: string,
    isActive: boolean,
    now = new Date().toISOString(),
  ): Promise<UserRecord> {
    const existing = await this.store.getById(id);
    if (!existing) throw notFound(Messages.userNotFound);
    if (existing.role === ROLE_ADMIN) throw forbidden(Messages.adminImmutable, 'admin_immutable');
    const updated = await this.store.setActive(id, isActive, now);
    if (!updated) throw notFound(Messages.userNotFound);
    this.audit(isActive ? 'admin.user_activated' : 'admin.user_deactivated', { actorId: actor.id, userId: id });
    return updated;
  }
}
