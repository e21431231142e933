import { useId } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import {
  CreateWorkspaceSchema,
  InviteSchema,
  REVIEW_GRACE_MAX_HOURS,
  REVIEW_MODES,
  REVIEW_MODE_NAMES,
  ReviewSettingsSchema,
  type ReviewSettings,
  ROLE_DESCRIPTIONS,
  ROLE_NAMES,
  WORKSPACE_ROLES,
  type CreateWorkspaceInput,
  type InviteInput,
  type WorkspaceRole,
} from '@app/shared';
import { errorText, request } from '../api/client';
import { Field, TextField } from '../components/Field';
import { PageHeader } from '../components/PageHeader';
import { useSession } from '../hooks/useSession';
import { REVIEW_SETTINGS_KEY, useReviewSettings } from '../hooks/useReviewSettings';
import {
  WORKSPACES_QUERY_KEY,
  useCurrentWorkspace,
  useCurrentWorkspaceId,
  useSwitchWorkspace,
  useWorkspaces,
} from '../hooks/useWorkspaces';
import { useZodForm } from '../lib/form';
import { toast } from '../lib/toast';
import '../styles/workspaces.css';

const MEMBERS_KEY = ['workspace', 'members'] as const;
const INVITATIONS_KEY = ['workspace', 'invitations'] as const;

/** docs/product.md (Workspaces): the user's workspaces, a new team workspace, and the current one's members. */
export default function WorkspacesPage() {
  const { workspace } = useCurrentWorkspace();
  return (
    <div className="page page-stack workspaces-page">
      <PageHeader title="Workspaces" description="Your personal workspace and the teams you belong to" />
      <WorkspaceList />
      {workspace && !workspace.personal ? (
        <>
          <Members role={workspace.role} name={workspace.name} />
          <ReviewSettingsCard role={workspace.role} />
        </>
      ) : (
        <section className="card settings-card" aria-labelledby="personal-members">
          <h2 className="card-title" id="personal-members">
            Members
          </h2>
          <p className="card-description">
            Your personal workspace is yours alone. Create a team workspace to invite people to write, review and
            publish with you.
          </p>
        </section>
      )}
    </div>
  );
}

function WorkspaceList() {
  const uid = useId();
  const queryClient = useQueryClient();
  const { data: workspaces, isPending } = useWorkspaces();
  const current = useCurrentWorkspaceId();
  const switchTo = useSwitchWorkspace();
  const form = useZodForm(CreateWorkspaceSchema(), { name: '' });
  const create = useMutation({
    mutationFn: (body: CreateWorkspaceInput) => request('workspaces.create', { body }),
    onSuccess: async ({ workspace, message }) => {
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY });
      form.reset();
      switchTo(workspace);
      toast.success(message);
    },
  });
  const creating = create.isPending;
  return (
    <section className="card settings-card" aria-labelledby={`${uid}-title`}>
      <h2 className="card-title" id={`${uid}-title`}>
        Your workspaces
      </h2>
      {isPending ? (
        <p className="muted">Loading…</p>
      ) : (
        <ul className="workspace-list">
          {(workspaces ?? []).map((w) => {
            const selected = w.personal ? !current || current === w.id : current === w.id;
            return (
              <li key={w.id} className="workspace-list__item">
                <span className="workspace-list__name">{w.name}</span>
                <span className="badge">{ROLE_NAMES[w.role]}</span>
                {selected ? (
                  <span className="workspace-list__current">Current</span>
                ) : (
                  <button type="button" className="btn btn--secondary btn--sm" onClick={() => switchTo(w)}>
                    Switch to {w.name}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <form
        className="workspace-form"
        noValidate
        onSubmit={(event) => {
          if (creating) return event.preventDefault();
          create.reset();
          void form.handleSubmit((body) => create.mutate(body))(event);
        }}
      >
        <TextField
          {...form.register('name')}
          id={`${uid}-name`}
          label="New team workspace"
          placeholder="e.g. Acme Marketing"
          disabled={creating}
          error={form.formState.errors.name?.message}
        />
        <button type="submit" className="btn btn--primary" disabled={creating}>
          {creating ? 'Creating…' : 'Create workspace'}
        </button>
      </form>
      {create.error && (
        <p className="alert alert--error" role="alert">
          {errorText(create.error, 'The workspace could not be created. Please try again.')}
        </p>
      )}
    </section>
  );
}

function Members({ role, name }: { role: WorkspaceRole; name: string }) {
  const uid = useId();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const isOwner = role === 'owner';
  const members = useQuery({
    queryKey: MEMBERS_KEY,
    queryFn: async () => (await request('workspaces.members')).members,
    retry: false,
  });
  const invitations = useQuery({
    queryKey: INVITATIONS_KEY,
    queryFn: async () => (await request('workspaces.invitations')).invitations,
    retry: false,
    enabled: isOwner,
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: MEMBERS_KEY }),
      queryClient.invalidateQueries({ queryKey: INVITATIONS_KEY }),
    ]);
  const setRole = useMutation({
    mutationFn: ({ userId, role: next }: { userId: string; role: WorkspaceRole }) =>
      request('workspaces.setRole', { params: { userId }, body: { role: next } }),
    onSuccess: async ({ message }) => {
      await refresh();
      toast.success(message);
    },
    onError: (err) => toast.error(errorText(err, 'The role could not be changed.')),
  });
  const remove = useMutation({
    mutationFn: (userId: string) => request('workspaces.removeMember', { params: { userId } }),
    onSuccess: async ({ message }) => {
      await refresh();
      toast.success(message);
    },
    onError: (err) => toast.error(errorText(err, 'The member could not be removed.')),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => request('workspaces.revokeInvitation', { params: { id } }),
    onSuccess: async ({ message }) => {
      await refresh();
      toast.success(message);
    },
    onError: (err) => toast.error(errorText(err, 'The invitation could not be withdrawn.')),
  });

  return (
    <>
      <section className="card settings-card" aria-labelledby={`${uid}-members`}>
        <h2 className="card-title" id={`${uid}-members`}>
          Members of {name}
        </h2>
        {members.error ? (
          <p className="alert alert--error" role="alert">
            {errorText(members.error, 'The members could not be loaded.')}
          </p>
        ) : (
          <ul className="member-list">
            {(members.data ?? []).map((m) => (
              <li key={m.userId} className="member-list__item">
                <span className="member-list__who">
                  <span className="member-list__name">{m.name}</span>
                  <span className="muted">{m.email}</span>
                </span>
                {isOwner && m.userId !== user?._id ? (
                  <span className="member-list__actions">
                    <label className="sr-only" htmlFor={`${uid}-role-${m.userId}`}>
                      Role of {m.name}
                    </label>
                    <select
                      id={`${uid}-role-${m.userId}`}
                      className="input select"
                      value={m.role}
                      disabled={setRole.isPending}
                      onChange={(event) =>
                        setRole.mutate({ userId: m.userId, role: event.target.value as WorkspaceRole })
                      }
                    >
                      {WORKSPACE_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {ROLE_NAMES[r]}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      className="btn btn--danger-ghost btn--sm"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(m.userId)}
                    >
                      Remove<span className="sr-only"> {m.name}</span>
                    </button>
                  </span>
                ) : (
                  <span className="badge">{ROLE_NAMES[m.role]}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {isOwner && (
        <section className="card settings-card" aria-labelledby={`${uid}-invite`}>
          <h2 className="card-title" id={`${uid}-invite`}>
            Invite people
          </h2>
          <p className="card-description">
            The invitation link is e-mailed to the address; it works once and expires after a week. Someone without an
            account registers through it.
          </p>
          <InviteForm onSent={refresh} />
          {(invitations.data ?? []).length > 0 && (
            <>
              <h3 className="workspace-subtitle">Pending invitations</h3>
              <ul className="member-list">
                {invitations.data!.map((i) => (
                  <li key={i.id} className="member-list__item">
                    <span className="member-list__who">
                      <span className="member-list__name">{i.email}</span>
                      <span className="muted">
                        {ROLE_NAMES[i.role]} ·{' '}
                        {i.expired ? 'Expired' : `Expires ${new Date(i.expiresAt).toLocaleString()}`}
                      </span>
                    </span>
                    <button
                      type="button"
                      className="btn btn--danger-ghost btn--sm"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(i.id)}
                    >
                      Withdraw<span className="sr-only"> the invitation of {i.email}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </>
  );
}

function InviteForm({ onSent }: { onSent: () => Promise<unknown> }) {
  const uid = useId();
  const form = useZodForm(InviteSchema(), { email: '', role: 'writer' });
  const invite = useMutation({
    mutationFn: (body: InviteInput) => request('workspaces.invite', { body }),
    onSuccess: async ({ message }) => {
      form.reset({ email: '', role: form.getValues('role') });
      await onSent();
      toast.success(message);
    },
  });
  const sending = invite.isPending;
  const roleId = `${uid}-role`;
  const role = useWatch({ control: form.control, name: 'role' }) as WorkspaceRole;
  return (
    <form
      className="workspace-form"
      noValidate
      onSubmit={(event) => {
        if (sending) return event.preventDefault();
        invite.reset();
        void form.handleSubmit((body) => invite.mutate(body))(event);
      }}
    >
      <TextField
        {...form.register('email')}
        id={`${uid}-email`}
        label="E-mail address"
        type="email"
        autoComplete="off"
        disabled={sending}
        error={form.formState.errors.email?.message}
      />
      <Field id={roleId} label="Role" hint={ROLE_DESCRIPTIONS[role]}>
        {(aria) => (
          <select {...aria} {...form.register('role')} id={roleId} className="input select" disabled={sending}>
            {WORKSPACE_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_NAMES[r]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" className="btn btn--primary" disabled={sending}>
        {sending ? 'Sending…' : 'Send invitation'}
      </button>
      {invite.error && (
        <p className="alert alert--error workspace-form__error" role="alert">
          {errorText(invite.error, 'The invitation could not be sent. Please try again.')}
        </p>
      )}
    </form>
  );
}

/**
 * docs/product.md (Workspaces, Review): what publishing needs in this team workspace, and how long past its slot an
 * unapproved version may still be approved. Every member sees it; an owner changes it.
 */
function ReviewSettingsCard({ role }: { role: WorkspaceRole }) {
  const settings = useReviewSettings();
  // The form starts from the loaded setting (a new form once it is there).
  return <ReviewSettingsForm key={`${settings.mode}-${settings.graceHours}`} role={role} settings={settings} />;
}

function ReviewSettingsForm({ role, settings }: { role: WorkspaceRole; settings: ReviewSettings }) {
  const uid = useId();
  const queryClient = useQueryClient();
  const owner = role === 'owner';
  const form = useZodForm(ReviewSettingsSchema(), { mode: settings.mode, graceHours: settings.graceHours });
  const save = useMutation({
    mutationFn: (body: ReviewSettings) => request('workspaces.setReview', { body }),
    onSuccess: async ({ message, settings: saved }) => {
      form.reset(saved);
      await queryClient.invalidateQueries({ queryKey: [REVIEW_SETTINGS_KEY] });
      toast.success(message);
    },
  });
  const saving = save.isPending;
  const modeId = `${uid}-mode`;
  return (
    <section className="card settings-card" aria-labelledby={`${uid}-review`}>
      <h2 className="card-title" id={`${uid}-review`}>
        Review before publishing
      </h2>
      <p className="card-description">
        Who must approve a version before it is published. A version not approved by its scheduled time shows “Waiting
        for approval”, and “Expired” once the grace period is over.
      </p>
      {!owner ? (
        <p>
          <strong>{REVIEW_MODE_NAMES[settings.mode]}</strong>
          {settings.mode !== 'author' && <> · grace period {settings.graceHours} hours</>}
        </p>
      ) : (
        <form
          className="workspace-form"
          noValidate
          onSubmit={(event) => {
            if (saving) return event.preventDefault();
            save.reset();
            void form.handleSubmit((body) => save.mutate(body))(event);
          }}
        >
          <Field id={modeId} label="Publishing needs">
            {(aria) => (
              <select {...aria} {...form.register('mode')} id={modeId} className="input select" disabled={saving}>
                {REVIEW_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {REVIEW_MODE_NAMES[mode]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextField
            {...form.register('graceHours', { valueAsNumber: true })}
            id={`${uid}-grace`}
            label="Grace period (hours)"
            hint={`0 to ${REVIEW_GRACE_MAX_HOURS}: how long past its scheduled time a version may still be approved`}
            type="number"
            min={0}
            max={REVIEW_GRACE_MAX_HOURS}
            step={1}
            disabled={saving}
            error={form.formState.errors.graceHours?.message}
          />
          <button type="submit" className="btn btn--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          {save.error && (
            <p className="alert alert--error workspace-form__error" role="alert">
              {errorText(save.error, 'The setting could not be saved. Please try again.')}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
