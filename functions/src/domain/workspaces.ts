import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  DEFAULT_REVIEW_SETTINGS,
  INVITATION_TTL_DAYS,
  PERSONAL_WORKSPACE_NAME,
  ROLE_NAMES,
  WorkspaceMessages,
  roleAtLeast,
  type InvitationPreview,
  type InviteInput,
  type ReviewSettings,
  type WorkspaceInvitation,
  type WorkspaceMember,
  type WorkspaceRole,
  type WorkspaceSummary,
} from '@app/shared';
import { equalInConstantTime } from './constant-time.js';
import { badRequest, conflict, forbidden, notFound } from './errors.js';
import type { MailMessage, MailSender } from './integrations.js';
import { normalizeEmail, type UserRecord } from './users.js';

/**
 * Workspaces (docs/product.md, Workspaces; docs/data-model.md, Workspaces). A personal workspace is its
 * account: its id is the user's id and its data are the `USER#<userId>` partition as it always was, so
 * nothing of a single user's data moves. A team workspace has an id of its own in the same partition
 * scheme, a record, and members with one role each.
 */

/** A team workspace's record (the PROFILE item of its partition, which also carries its articles' version). */
export interface WorkspaceRecord {
  id: string;
  name: string;
  createdAt: string;
  createdBy: string;
  /** How many members are owners: a write that would leave none is refused atomically. */
  owners: number;
  /** Moved by every write to one of its articles, as a user's (UserRecord.articlesVersion). */
  articlesVersion?: number;
  articlesChangedAt?: string;
  /** What publishing needs (domain/review.ts); absent: the author's own approval. */
  review?: ReviewSettings;
}

export interface MemberRecord {
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
  joinedAt: string;
  name: string;
  email: string;
}

/** The reverse of a member item, in the user's partition: what "my workspaces" lists. */
export interface MembershipRecord {
  workspaceId: string;
  workspaceName: string;
  role: WorkspaceRole;
}

export interface InvitationRecord {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: WorkspaceRole;
  invitedBy: string;
  invitedByName: string;
  createdAt: string;
  /** Epoch seconds: the table's time to live removes it some time after. */
  expiresAt: number;
  /** SHA-256 of the link's secret (hex): the table never holds a usable link. */
  tokenHash: string;
  /** Set when the link was used (it works once). */
  usedAt?: string;
  usedBy?: string;
}

export type AcceptOutcome = 'accepted' | 'used' | 'member';
export type MemberChange = 'changed' | 'gone' | 'last-owner';

/** Storage port for workspaces (DynamoDB: adapters/dynamo/workspace-store.ts). */
export interface WorkspaceStore {
  /** Creates the workspace with its first member, an owner, in one transaction. */
  create(workspace: WorkspaceRecord, owner: MemberRecord): Promise<void>;
  /** A team workspace's record and the user's member item, strongly consistent (one request). */
  access(
    workspaceId: string,
    userId: string,
  ): Promise<{ workspace: WorkspaceRecord | undefined; member: MemberRecord | undefined }>;
  get(workspaceId: string): Promise<WorkspaceRecord | undefined>;
  members(workspaceId: string): Promise<MemberRecord[]>;
  memberships(userId: string): Promise<MembershipRecord[]>;
  /** Changes a member's role while it is still `from`; refused when it would leave no owner. */
  setRole(workspaceId: string, userId: string, from: WorkspaceRole, to: WorkspaceRole): Promise<MemberChange>;
  removeMember(workspaceId: string, userId: string, from: WorkspaceRole): Promise<MemberChange>;
  putInvitation(invitation: InvitationRecord): Promise<void>;
  invitation(workspaceId: string, id: string): Promise<InvitationRecord | undefined>;
  invitations(workspaceId: string): Promise<InvitationRecord[]>;
  deleteInvitation(workspaceId: string, id: string): Promise<boolean>;
  /** Uses the invitation (deleted while its hash is the one read) and adds the member, in one transaction. */
  accept(invitation: InvitationRecord, member: MemberRecord): Promise<AcceptOutcome>;
  /** Sets a team workspace's review setting (on its record). */
  setReview(workspaceId: string, settings: ReviewSettings): Promise<void>;
  instanceSettings(): Promise<{ invitationsActivateAccounts: boolean }>;
  setInstanceSettings(settings: { invitationsActivateAccounts: boolean }): Promise<void>;
}

/** What every function reads of a workspace (adapters/dynamo/workspace-reads.ts). */
export type WorkspaceReads = Pick<WorkspaceStore, 'access' | 'get' | 'members' | 'setReview'>;

/**
 * The workspace a request acts in, as the middleware resolved it (middleware/workspace.ts): handlers use
 * `id` where they used the user's id (the owner partition of articles, settings, secrets, images).
 */
export interface CurrentWorkspace {
  id: string;
  personal: boolean;
  name: string;
  role: WorkspaceRole;
  /** The list version of its articles (http/articles.ts), read with the request's first reads. */
  articlesVersion?: number;
  articlesChangedAt?: string;
  /**
   * What publishing needs (domain/review.ts), read with the workspace's record, so an edit or a Publish Now
   * does not read the record again: a personal workspace's is always the author's own approval.
   */
  review: ReviewSettings;
}

const WORKSPACE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The current workspace of a request: the caller's personal one without a header (or with their own id),
 * else the named team workspace while the caller is a member. Not a member, or no such workspace: 404,
 * read on every request, so a removal or a lower role takes effect on the member's next request.
 */
export async function resolveWorkspace(
  store: Pick<WorkspaceStore, 'access'>,
  user: UserRecord,
  header: string | undefined,
): Promise<CurrentWorkspace> {
  const named = header?.trim();
  if (!named || named === user.id) {
    return {
      id: user.id,
      personal: true,
      name: PERSONAL_WORKSPACE_NAME,
      role: 'owner',
      articlesVersion: user.articlesVersion,
      articlesChangedAt: user.articlesChangedAt,
      review: DEFAULT_REVIEW_SETTINGS,
    };
  }
  if (!WORKSPACE_ID.test(named)) throw badRequest('X-Workspace must be a workspace id', 'invalid_workspace');
  const { workspace, member } = await store.access(named, user.id);
  if (!workspace || !member) throw notFound(WorkspaceMessages.notFound, 'workspace_not_found');
  return {
    id: workspace.id,
    personal: false,
    name: workspace.name,
    role: member.role,
    articlesVersion: workspace.articlesVersion,
    articlesChangedAt: workspace.articlesChangedAt,
    review: { ...DEFAULT_REVIEW_SETTINGS, ...workspace.review },
  };
}

/** Refuses a call the caller's role in the workspace does not allow (403: they can see the workspace). */
export function requireRole(workspace: CurrentWorkspace, needed: WorkspaceRole): void {
  if (!roleAtLeast(workspace.role, needed))
    throw forbidden(WorkspaceMessages.roleForbidden(workspace.role), 'role_forbidden');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
export const displayName = (user: Pick<UserRecord, 'name' | 'surname'>) => `${user.name} ${user.surname}`.trim();

/** An invitation link's token: which invitation, and the secret only the e-mail carries. */
function parseToken(token: string): { workspaceId: string; id: string; secret: string } | undefined {
  const [workspaceId, id, secret, ...rest] = token.split('.');
  if (!workspaceId || !id || !secret || rest.length) return undefined;
  return { workspaceId, id, secret };
}

export interface WorkspaceServiceDeps {
  store: WorkspaceStore;
  /** Who may send the invitation e-mail of a workspace (its Gmail, else the inviter's own, else the local outbox). */
  mailer?: (workspaceId: string, inviterId: string) => Promise<MailSender | undefined>;
  publicUrl: () => string;
  now?: () => Date;
}

export class WorkspaceService {
  constructor(private readonly deps: WorkspaceServiceDeps) {}

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  /** The switcher's list: the personal workspace first, then the team workspaces by name. */
  async list(user: UserRecord): Promise<WorkspaceSummary[]> {
    const teams = (await this.deps.store.memberships(user.id))
      .map((m) => ({ id: m.workspaceId, name: m.workspaceName, personal: false, role: m.role }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return [{ id: user.id, name: PERSONAL_WORKSPACE_NAME, personal: true, role: 'owner' }, ...teams];
  }

  async create(user: UserRecord, name: string): Promise<WorkspaceSummary> {
    const now = this.now().toISOString();
    const id = randomUUID();
    await this.deps.store.create(
      { id, name, createdAt: now, createdBy: user.id, owners: 1 },
      { workspaceId: id, userId: user.id, role: 'owner', joinedAt: now, name: displayName(user), email: user.email },
    );
    return { id, name, personal: false, role: 'owner' };
  }

  async members(workspace: CurrentWorkspace, user: UserRecord): Promise<WorkspaceMember[]> {
    if (workspace.personal)
      return [{ userId: user.id, name: displayName(user), email: user.email, role: 'owner', joinedAt: user.createdAt }];
    return (await this.deps.store.members(workspace.id))
      .map(({ userId, name, email, role, joinedAt }) => ({ userId, name, email, role, joinedAt }))
      .sort((a, b) => a.joinedAt.localeCompare(b.joinedAt));
  }

  private team(workspace: CurrentWorkspace): void {
    if (workspace.personal) throw badRequest(WorkspaceMessages.personalHasNoMembers, 'personal_workspace');
  }

  /** A member of a team workspace (a personal workspace has none but its user, whom nobody changes). */
  private async member(workspace: CurrentWorkspace, userId: string): Promise<MemberRecord> {
    const member = workspace.personal ? undefined : (await this.deps.store.access(workspace.id, userId)).member;
    if (!member) throw notFound(WorkspaceMessages.memberNotFound, 'member_not_found');
    return member;
  }

  private static changed(outcome: MemberChange): void {
    if (outcome === 'gone') throw notFound(WorkspaceMessages.memberNotFound, 'member_not_found');
    if (outcome === 'last-owner') throw conflict(WorkspaceMessages.lastOwner, 'last_owner');
  }

  async setRole(workspace: CurrentWorkspace, userId: string, role: WorkspaceRole): Promise<void> {
    const member = await this.member(workspace, userId);
    if (member.role === role) return;
    WorkspaceService.changed(await this.deps.store.setRole(workspace.id, userId, member.role, role));
  }

  async removeMember(workspace: CurrentWorkspace, userId: string): Promise<void> {
    const member = await this.member(workspace, userId);
    WorkspaceService.changed(await this.deps.store.removeMember(workspace.id, userId, member.role));
  }

  private view(invitation: InvitationRecord): WorkspaceInvitation {
    return {
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      invitedAt: invitation.createdAt,
      expiresAt: new Date(invitation.expiresAt * 1000).toISOString(),
      expired: invitation.expiresAt * 1000 <= this.now().getTime(),
    };
  }

  async invitations(workspace: CurrentWorkspace): Promise<WorkspaceInvitation[]> {
    if (workspace.personal) return [];
    return (await this.deps.store.invitations(workspace.id))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((i) => this.view(i));
  }

  /**
   * Sends a single-use link that expires (INVITATION_TTL_DAYS) to the address. The link goes only to the
   * address, never back to the inviter: whoever holds it may register an account for that address.
   */
  async invite(workspace: CurrentWorkspace, inviter: UserRecord, input: InviteInput): Promise<WorkspaceInvitation> {
    this.team(workspace);
    const email = normalizeEmail(input.email);
    const members = await this.deps.store.members(workspace.id);
    if (members.some((m) => m.email === email)) throw conflict(WorkspaceMessages.alreadyMember, 'already_member');
    const mailer = await this.deps.mailer?.(workspace.id, inviter.id);
    if (!mailer) throw badRequest(WorkspaceMessages.noMailer, 'email_not_configured');
    const now = this.now();
    const secret = randomBytes(32).toString('base64url');
    const invitation: InvitationRecord = {
      id: randomBytes(12).toString('base64url'),
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      email,
      role: input.role,
      invitedBy: inviter.id,
      invitedByName: displayName(inviter),
      createdAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + INVITATION_TTL_DAYS * 86_400,
      tokenHash: sha256(secret),
    };
    await this.deps.store.putInvitation(invitation);
    const link = `${this.deps.publicUrl()}/invite?token=${encodeURIComponent(`${workspace.id}.${invitation.id}.${secret}`)}`;
    await mailer.send(invitationEmail(invitation, link));
    return this.view(invitation);
  }

  async revokeInvitation(workspace: CurrentWorkspace, id: string): Promise<void> {
    if (workspace.personal || !(await this.deps.store.deleteInvitation(workspace.id, id)))
      throw notFound(WorkspaceMessages.invitationNotFound, 'invitation_not_found');
  }

  /** The invitation a link names, while it is genuine and unexpired (400 otherwise, saying which). */
  async verify(token: string): Promise<InvitationRecord> {
    const parts = parseToken(token);
    const invitation = parts && (await this.deps.store.invitation(parts.workspaceId, parts.id));
    if (!parts || !invitation || !equalInConstantTime(sha256(parts.secret), invitation.tokenHash))
      throw badRequest(WorkspaceMessages.invitationInvalid, 'invitation_invalid');
    if (invitation.usedAt) throw badRequest(WorkspaceMessages.invitationUsed, 'invitation_used');
    if (invitation.expiresAt * 1000 <= this.now().getTime())
      throw badRequest(WorkspaceMessages.invitationExpired, 'invitation_expired');
    return invitation;
  }

  async preview(token: string): Promise<InvitationPreview> {
    const invitation = await this.verify(token);
    return {
      workspaceName: invitation.workspaceName,
      invitedBy: invitation.invitedByName,
      email: invitation.email,
      role: invitation.role,
      expiresAt: new Date(invitation.expiresAt * 1000).toISOString(),
    };
  }

  /** Joins the workspace with the invitation's role; the signed-in account must be the invited address. */
  async accept(user: UserRecord, token: string): Promise<WorkspaceSummary> {
    const invitation = await this.verify(token);
    if (normalizeEmail(user.email) !== invitation.email)
      throw forbidden(WorkspaceMessages.invitationOtherEmail(invitation.email), 'invitation_other_email');
    return this.join(user, invitation);
  }

  /** Uses the invitation for `user` (a new account registered through it, or accept). */
  async join(user: UserRecord, invitation: InvitationRecord): Promise<WorkspaceSummary> {
    const outcome = await this.deps.store.accept(invitation, {
      workspaceId: invitation.workspaceId,
      userId: user.id,
      role: invitation.role,
      joinedAt: this.now().toISOString(),
      name: displayName(user),
      email: user.email,
    });
    if (outcome === 'used') throw badRequest(WorkspaceMessages.invitationUsed, 'invitation_used');
    if (outcome === 'member') throw conflict(WorkspaceMessages.youAreMember, 'already_member');
    return { id: invitation.workspaceId, name: invitation.workspaceName, personal: false, role: invitation.role };
  }

  /**
   * Who a team workspace's approval e-mails go to where it requires no review (docs/product.md, Workspaces): its
   * owners, longest-standing first. A personal workspace's are its user's, as before.
   */
  async owners(workspaceId: string): Promise<MemberRecord[]> {
    return (await this.deps.store.members(workspaceId))
      .filter((m) => m.role === 'owner')
      .sort((a, b) => a.joinedAt.localeCompare(b.joinedAt));
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The invitation e-mail: who invites, to which workspace, in which role, until when, and the link. */
export function invitationEmail(invitation: InvitationRecord, link: string): MailMessage {
  const role = ROLE_NAMES[invitation.role];
  const until = new Date(invitation.expiresAt * 1000).toUTCString();
  const subject = `${invitation.invitedByName} invited you to ${invitation.workspaceName} on Content Publisher`;
  const text = [
    `${invitation.invitedByName} invited you to the workspace "${invitation.workspaceName}" as ${role}.`,
    '',
    `Accept the invitation (the link works once, until ${until}):`,
    link,
    '',
    'Without an account you can register through the link.',
  ].join('\n');
  const html = `<p>${escapeHtml(invitation.invitedByName)} invited you to the workspace <strong>${escapeHtml(
    invitation.workspaceName,
  )}</strong> as ${role}.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a></p><p>The link works once, until ${escapeHtml(
    until,
  )}. Without an account you can register through it.</p>`;
  return { to: invitation.email, subject, text, html };
}
