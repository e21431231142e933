import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Messages, isAdmin, type PublicUser } from '@app/shared';
import { errorText, request } from '../api/client';
import { PageHeader } from '../components/PageHeader';
import { TableCardState } from '../components/TableCardState';
import { toast } from '../lib/toast';
import '../styles/admin.css';

export const ADMIN_USERS_QUERY_KEY = ['admin', 'users'] as const;

/** docs/product.md (Admin): list users and activate or deactivate the non-admin ones. */
export default function AdminPage() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const usersQuery = useQuery({
    queryKey: ADMIN_USERS_QUERY_KEY,
    queryFn: async () => (await request('admin.listUsers')).users,
    retry: false,
  });

  const setRowPending = (id: string, on: boolean) =>
    setPending((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const toggle = async (user: PublicUser) => {
    if (pending.has(user._id)) return;
    setRowPending(user._id, true);
    try {
      const { user: updated } = await request('admin.setUserStatus', {
        params: { id: user._id },
        body: { isActive: !user.isActive },
      });
      queryClient.setQueryData<PublicUser[]>(ADMIN_USERS_QUERY_KEY, (users) =>
        users?.map((row) => (row._id === updated._id ? updated : row)),
      );
      toast.success(updated.isActive ? Messages.userActivated : Messages.userDeactivated);
    } catch (err) {
      toast.error(errorText(err, Messages.failedToUpdateUser, 'error'));
    } finally {
      setRowPending(user._id, false);
    }
  };

  const users = usersQuery.data ?? [];

  return (
    <div className="page">
      <PageHeader title="Admin" description="Manage user activation status" />
      <section className="card admin-card" aria-label="Users">
        <TableCardState
          query={usersQuery}
          loadingLabel="Loading users"
          failedText={errorText(usersQuery.error, Messages.failedToLoadUsers, 'error')}
          empty={users.length === 0}
          emptyText="No users yet."
        >
          <div className="table-wrap">
            <table className="table">
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
                  const busy = pending.has(user._id);
                  return (
                    <tr key={user._id}>
                      <td className="table__name">{fullName}</td>
                      <td className="table__email">{user.email}</td>
                      <td>{isAdmin(user) ? 'Admin' : 'User'}</td>
                      <td>
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
                            onClick={() => void toggle(user)}
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
