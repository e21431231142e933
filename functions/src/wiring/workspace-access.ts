import { DynamoWorkspaceReads } from '../adapters/dynamo/workspace-reads.js';
import type { UserRecord } from '../domain/users.js';
import type { WorkspaceReads } from '../domain/workspaces.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

/**
 * What every function reads of the workspaces, for the middleware that resolves every request's workspace
 * (middleware/workspace.ts): the table only, so no function's bundle grows by more than it. The store that changes
 * members and invitations is workspaceStore() (wiring/workspace-store.ts).
 */
export const workspaceReads = lazy((): WorkspaceReads => {
  const { db, config } = deps();
  return new DynamoWorkspaceReads(db, config.tableName);
});

/**
 * Who a workspace's scheduled runs and approval links act for (their e-mail, zone and session version):
 * a personal workspace's user as before; a team workspace's longest-standing active owner where it
 * requires no review (docs/product.md, Workspaces). Undefined when there is none (nothing runs, as for a deactivated user).
 */
export async function activeWorkspaceOwner(ownerId: string): Promise<UserRecord | undefined> {
  const { users } = deps();
  const user = await users.activeUser(ownerId);
  if (user) return user;
  const store = workspaceReads();
  if (!(await store.get(ownerId))) return undefined;
  const owners = (await store.members(ownerId))
    .filter((m) => m.role === 'owner')
    .sort((a, b) => a.joinedAt.localeCompare(b.joinedAt));
  for (const owner of owners) {
    const active = await users.activeUser(owner.userId);
    if (active) return active;
  }
  return undefined;
}
