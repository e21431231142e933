import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ROLE_NAMES } from '@app/shared';
import { useCurrentWorkspaceId, useSwitchWorkspace, useWorkspaces } from '../hooks/useWorkspaces';
import '../styles/workspaces.css';

/**
 * docs/product.md (Workspaces): the top bar's workspace switcher. Shown once the user is in a team
 * workspace (a user alone sees the top bar as before). Switching keeps the page, without its query
 * (an article of the workspace before), and shows the new workspace's data only.
 */
export function WorkspaceSwitcher() {
  const id = useId();
  const { data: workspaces } = useWorkspaces();
  const current = useCurrentWorkspaceId();
  const switchTo = useSwitchWorkspace();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  if (!workspaces || workspaces.length < 2) return null;
  const selected = workspaces.find((w) => w.id === current) ?? workspaces.find((w) => w.personal)!;
  return (
    <div className="workspace-switcher">
      <label className="sr-only" htmlFor={id}>
        Workspace
      </label>
      <select
        id={id}
        className="input select workspace-switcher__select"
        value={selected.id}
        onChange={(event) => {
          const next = workspaces.find((w) => w.id === event.target.value);
          if (!next) return;
          switchTo(next);
          navigate(pathname, { replace: true });
        }}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.personal ? w.name : `${w.name} (${ROLE_NAMES[w.role]})`}
          </option>
        ))}
      </select>
    </div>
  );
}
