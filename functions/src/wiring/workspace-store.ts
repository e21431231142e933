import { DynamoWorkspaceStore } from '../adapters/dynamo/workspace-store.js';
import type { WorkspaceStore } from '../domain/workspaces.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

/** Workspaces with their members and invitations, for the calls that change them (workspaces, admin, invited sign-up). */
export const workspaceStore = lazy((): WorkspaceStore => {
  const { db, config } = deps();
  return new DynamoWorkspaceStore(db, config.tableName);
});
