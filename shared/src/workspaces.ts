import * as z from 'zod/mini';
import { EmailSchema, RegisterSchema } from './auth.js';
import { lazySchema } from './lazy-schema.js';
import { NAME_MAX_LENGTH } from './limits.js';
import { safeCharacters } from './text.js';

/**
 * Workspaces and roles (docs/product.md, Workspaces; docs/data-model.md, Workspaces). Every account has a
 * personal workspace whose id is the account's id; team workspaces have ids of their own and members
 * with one role each.
 */
export const WORKSPACE_ROLES = ['owner', 'editor', 'writer', 'reviewer'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** Each role may do what the roles below it may: owner > editor > writer > reviewer. */
const RANK: Record<WorkspaceRole, number> = { reviewer: 0, writer: 1, editor: 2, owner: 3 };
export const roleAtLeast = (role: WorkspaceRole, needed: WorkspaceRole): boolean => RANK[role] >= RANK[needed];

export const ROLE_NAMES: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  editor: 'Editor',
  writer: 'Writer',
  reviewer: 'Reviewer',
};

export const ROLE_DESCRIPTIONS: Record<WorkspaceRole, string> = {
  owner: 'Members, connections, settings and everything an editor can do',
  editor: 'Create, edit, schedule and publish',
  writer: 'Create and edit; cannot schedule or publish',
  reviewer: 'Read only',
};

export { WORKSPACE_COOKIE, WORKSPACE_HEADER, WORKSPACE_QUERY } from './workspace-names.js';

/** How long an invitation link may be used. */
export const INVITATION_TTL_DAYS = 7;

const WORKSPACE_NAME_MAX = NAME_MAX_LENGTH;

export const WorkspaceIdSchema = lazySchema(() =>
  z
    .string({ error: 'The workspace id is required' })
    .check(
      z.minLength(1, 'The workspace id is required'),
      z.maxLength(64, 'The workspace id is too long'),
      z.regex(/^[A-Za-z0-9_-]+$/, 'The workspace id is not valid'),
    ),
);

export const CreateWorkspaceSchema = lazySchema(() =>
  z.strictObject({
    name: z
      .string({ error: 'Name is required' })
      .check(
        z.trim(),
        z.minLength(1, 'Name is required'),
        z.maxLength(WORKSPACE_NAME_MAX, `Name must be at most ${WORKSPACE_NAME_MAX} characters`),
        safeCharacters('Name'),
      ),
  }),
);
export type CreateWorkspaceInput = z.infer<ReturnType<typeof CreateWorkspaceSchema>>;

const RoleSchema = lazySchema(() =>
  z.enum(WORKSPACE_ROLES, { error: 'Role must be owner, editor, writer or reviewer' }),
);

export const InviteSchema = lazySchema(() => z.strictObject({ email: EmailSchema(), role: RoleSchema() }));
export type InviteInput = z.infer<ReturnType<typeof InviteSchema>>;

export const MemberRoleSchema = lazySchema(() => z.strictObject({ role: RoleSchema() }));
export const MemberParamsSchema = lazySchema(() => z.strictObject({ userId: WorkspaceIdSchema() }));
export const InvitationParamsSchema = lazySchema(() => z.strictObject({ id: WorkspaceIdSchema() }));

/** An invitation link's token: `<workspace id>.<invitation id>.<secret>` (functions/src/domain/workspaces.ts). */
export const InvitationTokenSchema = lazySchema(() =>
  z
    .string({ error: 'The invitation link is not valid' })
    .check(
      z.minLength(1, 'The invitation link is not valid'),
      z.maxLength(300, 'The invitation link is not valid'),
      z.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'The invitation link is not valid'),
    ),
);

export const InvitationSchema = lazySchema(() => z.strictObject({ token: InvitationTokenSchema() }));

/** Registering through an invitation: the e-mail is the invitation's, so the form does not ask for it. */
export const InvitedRegisterSchema = lazySchema(() =>
  z.extend(z.omit(RegisterSchema(), { email: true, setupCode: true }), { token: InvitationTokenSchema() }),
);
export type InvitedRegisterInput = z.infer<ReturnType<typeof InvitedRegisterSchema>>;

export const InstanceSettingsSchema = lazySchema(() =>
  z.strictObject({
    invitationsActivateAccounts: z.boolean({ error: 'invitationsActivateAccounts must be true or false' }),
  }),
);
export type InstanceSettings = z.infer<ReturnType<typeof InstanceSettingsSchema>>;

/** A workspace as the switcher lists it. */
export interface WorkspaceSummary {
  id: string;
  name: string;
  personal: boolean;
  role: WorkspaceRole;
}

export interface WorkspaceMember {
  userId: string;
  name: string;
  email: string;
  role: WorkspaceRole;
  joinedAt: string;
}

export interface WorkspaceInvitation {
  id: string;
  email: string;
  role: WorkspaceRole;
  invitedAt: string;
  expiresAt: string;
  expired: boolean;
}

/** What an invitation link shows before it is accepted. */
export interface InvitationPreview {
  workspaceName: string;
  invitedBy: string;
  email: string;
  role: WorkspaceRole;
  expiresAt: string;
}

export const PERSONAL_WORKSPACE_NAME = 'Personal';

export const WorkspaceMessages = {
  notFound: 'Workspace not found',
  roleForbidden: (role: WorkspaceRole) =>
    `Your role in this workspace (${ROLE_NAMES[role]}) does not allow this. Ask an owner of the workspace.`,
  personalHasNoMembers: 'A personal workspace has no other members. Create a team workspace to invite people.',
  created: 'Workspace created',
  invited: (email: string) => `Invitation sent to ${email}`,
  invitationRevoked: 'Invitation withdrawn',
  memberUpdated: 'Role changed',
  memberRemoved: 'Member removed',
  memberNotFound: 'Member not found',
  invitationNotFound: 'Invitation not found',
  lastOwner: 'A workspace needs at least one owner: make someone else an owner first',
  alreadyMember: 'That person is already a member of this workspace',
  invitationInvalid: 'This invitation link is not valid. Ask the workspace owner for a new one.',
  invitationExpired: 'This invitation has expired. Ask the workspace owner for a new one.',
  invitationUsed: 'This invitation has been used already.',
  invitationOtherEmail: (email: string) =>
    `This invitation is for ${email}. Sign in with that address (or register through the link) to accept it.`,
  joined: (name: string) => `You joined ${name}`,
  youAreMember: 'You are already a member of this workspace',
  accountExists: 'An account with this e-mail address exists already: sign in to accept the invitation.',
  registeredActive: 'Account created. You are logged in.',
  registeredPending:
    'Account created. You can log in once an admin activates it; you will then be a member of the workspace.',
  noMailer: 'No e-mail can be sent from this workspace: connect Gmail in Settings first.',
  settingsSaved: 'Settings saved',
} as const;
