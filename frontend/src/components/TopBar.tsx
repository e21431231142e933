import { useLocation, useNavigate } from 'react-router-dom';
import type { PublicUser } from '@app/shared';
import { pageNameFor } from '../hooks/useRouteTitle';
import { Icon } from './icons';
import { UserMenu } from './UserMenu';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';
import { useCan } from '../hooks/useWorkspaces';

interface TopBarProps {
  user: PublicUser | null;
  navOpen: boolean;
  navId: string;
  onToggleNav: () => void;
}

/**
 * docs/product.md (Shell): the current page's name, the workspace switcher (once the user is in a team),
 * a "+ New Article" button (not for a reviewer, who cannot create) and the user menu.
 */
export function TopBar({ user, navOpen, navId, onToggleNav }: TopBarProps) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const may = useCan();
  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button topbar__menu"
        aria-label={navOpen ? 'Close navigation' : 'Open navigation'}
        aria-expanded={navOpen}
        aria-controls={navId}
        onClick={onToggleNav}
      >
        <Icon name={navOpen ? 'close' : 'menu'} size={20} />
      </button>
      <span className="topbar__title" data-testid="topbar-title">
        {pageNameFor(pathname)}
      </span>
      <div className="topbar__actions">
        <WorkspaceSwitcher />
        {may('articles.create') && (
          <button type="button" className="btn btn--primary" onClick={() => navigate('/create')}>
            + New<span className="topbar__new-word"> Article</span>
          </button>
        )}
        <UserMenu user={user} />
      </div>
    </header>
  );
}
