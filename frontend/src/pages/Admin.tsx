import { useState } from 'react';
import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { Messages, isAdmin, type PublicUser } from '@app/shared';
import { errorText, request } from '../api/client';
import { PageHeader } from '../components/PageHeader';
import { TableCardState } from '../components/TableCardState';
import { toast } from '../lib/toast';
import '../styles/admin.css';

export const ADMIN_USERS_QUERY_KEY = ['admin', 'users'] as const;
const ADMIN_SETTINGS_QUERY_KEY = ['admin', 'settings'] as const;

/** Whether an invitation's link activates the account it registers (docs/product.md, Workspaces). */
function InvitationSetting() {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ADMIN_SETTINGS_QUERY_KEY,
    queryFn: async () => (await request('admin.getSettings')).settings,
    retry: false,
  });
  // What was chosen, shown at once (a controlled box would flip back until the answer arrives).
  const [chosen, setChosen] = useState<boolean>();
  const save = useMutation({
    mutationFn: (invitationsActivateAccounts: boolean) =>
      request('admin.setSettings', { body: { invitationsActivateAccounts } }),
    onSuccess: ({ settings: saved, message }) => {
      queryClient.setQueryData(ADMIN_SETTINGS_QUERY_KEY, saved);
      toast.success(message);
    },
    onError: (err) => {
      setChosen(undefined);
      toast.error(errorText(err, 'The setting could not be saved.'));
    },
  });
  if (!settings.data) return null;
  return (
    <section className="card admin-card admin-setting" aria-labelledby="admin-invitations">
      <h2 className="card-title" id="admin-invitations">
        Invitations
      </h2>
      <label className="admin-setting__toggle">
        <input
          type="checkbox"
          checked={chosen ?? settings.data.invitationsActivateAccounts}
          disabled={save.isPending}
          onChange={(event) => {
            setChosen(event.target.checked);
            save.mutate(event.target.checked);
          }}
        />
        <span>Accounts registered through a workspace invitation are active at once (no approval here)</span>
      </label>
    </section>
  );
}
const SET_STATUS_KEY = [...ADMIN_USERS_QUERY_KEY, 'set-status'] as const;

/** docs/product.md (Admin): list users and activate or deactivate the non-admin ones. */
export default function AdminPage() {
  const queryClient = useQueryClient();
  const usersQuery = useQuery({
    queryKey: ADMIN_USERS_QUERY_KEY,
    queryFn: async () => (await request('admin.listUsers')).users,
    retry: false,
  });

  const setStatus = useMutation({
    mutationKey: SET_STATUS_KEY,
    mutationFn: (user: PublicUser) =>
      request('admin.setUserStatus', { params: { id: user._id }, body: { isActive: !user.isActive } }),
    onSuccess: ({ user: updated }) => {
      queryClient.setQueryData<PublicUser[]>(ADMIN_USERS_QUERY_KEY, (users) =>
        users?.map((row) => (row._id === updated._id ? updated : row)),
      );
      toast.success(updated.isActive ? Messages.userActivated : Messages.userDeactivated);
    },
    onError: (err) => toast.error(errorText(err, Messages.failedToUpdateUser, 'error')),
  });
  // Each row's change runs on its own: the users being changed now.
  const pending = useMutationState({
    filters: { mutationKey: SET_STATUS_KEY, status: 'pending' },
    select: (mutation) => (mutation.state.variables as PublicUser)._id,
  });

  const toggle = (user: PublicUser) => {
    if (!pending.includes(user._id)) setStatus.mutate(user);
  };

  const users = usersQuery.data ?? [];

  return (
    <div className="page">
      <PageHeader title="Admin" description="Manage user activation status" />
      <InvitationSetting />
      <section className="card admin-card" aria-label="Users">
        <TableCardState
          query={usersQuery}
          loadingLabel="Loading users"
          failedText={errorText(usersQuery.error, Messages.failedToLoadUsers, 'error')}
          empty={users.length === 0}
          emptyText="No users yet."
        >
          <div className="table-wrap">
            <table className="table table--stacked">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="table__action">
                    Action
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.map((user) => {
                  const fullName = [user.name, user.surname].filter(Boolean).join(' ');
                  const busy = pending.includes(user._id);
                  return (
                    <tr key={user._id}>
                      <td className="table__name" data-label="Name">
                        {fullName}
                      </td>
                      <td className="table__email" data-label="Email">
                        {user.email}
                      </td>
                      <td data-label="Role">{isAdmin(user) ? 'Admin' : 'User'}</td>
                      <td data-label="Status">
                        <span className={`status-pill ${user.isActive ? 'status-pill--on' : 'status-pill--off'}`}>
                          {user.isActive ? 'Active' : 'Inactive'}
                        </span>
                      </td>
                      <td className="table__action">
                        {isAdmin(user) ? (
                          <span className="badge badge--accent">Admin</span>
                        ) : (
                          <button
                            type="button"
                            className={`btn btn--sm ${user.isActive ? 'btn--danger-ghost' : 'btn--primary'}`}
                            disabled={busy}
                            aria-busy={busy || undefined}
                            onClick={() => toggle(user)}
                          >
                            {busy ? (
                              'Please wait...'
                            ) : (
                              <>
                                {user.isActive ? 'Deactivate' : 'Activate'}
                                <span className="sr-only"> {fullName}</span>
                              </>
                            )}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </TableCardState>
      </section>
    </div>
  );
}
